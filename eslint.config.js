import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'dist-*/', 'node_modules/', 'var/', 'coverage/', 'test-artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'error',
      // Fastify plugins and handlers are async by contract, with or without an await.
      '@typescript-eslint/require-await': 'off',
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'mupdf',
              message: 'Import MuPDF from src/documents/mupdf.ts, which silences its console.',
            },
            {
              name: 'onnxruntime-node',
              message:
                'Import ONNX Runtime from src/ocr/runtime.ts, which turns its telemetry off.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/documents/mupdf.ts', 'src/ocr/runtime.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The web tool (web/): browser modules, served as they are.
    files: ['web/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'navigator',
          'sessionStorage',
          'fetch',
          'FormData',
          'XMLHttpRequest',
          'Blob',
          'URL',
          'TextEncoder',
          'Node',
          'setTimeout',
          'clearTimeout',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // dependency-cruiser reads its configuration as CommonJS.
    files: ['**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: { module: 'writable' },
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // node:test's describe/it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts', 'scripts/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
);
