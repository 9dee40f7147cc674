/**
 * The layering of src/, checked by `make lint` (dependency-cruiser). Arrows point down only:
 * a folder imports itself and the folders listed for it, nothing else; no module takes part in
 * an import cycle. docs/architecture.md explains each layer.
 */
const MAY_IMPORT = {
  // The shared vocabulary: geometry, text layers, rasters, formats, errors.
  domain: [],
  config: [],
  identifiers: ['domain'],
  accounts: ['domain', 'config'],
  documents: ['domain'],
  ocr: ['domain', 'documents'],
  detection: ['domain', 'identifiers'],
  redaction: ['domain', 'identifiers', 'documents'],
  cards: ['domain', 'identifiers', 'documents', 'detection'],
  pipeline: [
    'domain',
    'config',
    'identifiers',
    'documents',
    'ocr',
    'detection',
    'redaction',
    'cards',
  ],
  services: [
    'domain',
    'config',
    'identifiers',
    'documents',
    'ocr',
    'detection',
    'redaction',
    'cards',
    'pipeline',
  ],
  api: ['domain', 'config', 'accounts', 'services'],
  cli: ['domain', 'config', 'accounts', 'services'],
};

const layerRules = Object.entries(MAY_IMPORT).map(([folder, allowed]) => ({
  name: `${folder}-imports-below-only`,
  comment: `src/${folder}/ may import ${allowed.length ? allowed.join(', ') : 'no other folder of src/'}`,
  severity: 'error',
  from: { path: `^src/${folder}/` },
  // The command line starts the server (server.ts), which composes every layer.
  to: {
    path: '^src/',
    pathNot: `^src/((${[folder, ...allowed].join('|')})/${folder === 'cli' ? '|server\\.ts$' : ''})`,
  },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment:
        'A cycle hides which module depends on which; break it by moving the shared part down.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'entry-points-at-the-top',
      comment: 'server.ts composes the service; only the command line starts it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(server\\.ts|cli/)' },
      to: { path: '^src/server\\.ts$' },
    },
    {
      name: 'known-folders-only',
      comment: 'Every folder of src/ has a place in the layering above.',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: `^src/(server\\.ts|${Object.keys(MAY_IMPORT).join('|')})(/|$)`,
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
