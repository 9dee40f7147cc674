/**
 * `parda verify FILE`: the verification service on a local file, no key; the Verification
 * response on stdout. Exit status: 0 pass, 4 review, 5 fail, 3 no Aadhaar card, 1 error.
 */
import type { Command } from 'commander';
import { loadSettings } from '../config/settings.js';
import { serviceContext } from '../services/context.js';
import { verifyDocumentFile } from '../services/verify-document.js';
import { printServiceJson } from './extract.js';

export const VERDICT_EXIT = { pass: 0, review: 4, fail: 5 } as const;

export function registerVerifyCommand(program: Command): void {
  program
    .command('verify <input>')
    .description(
      'verify an Aadhaar card in a local JPEG, PNG or PDF against its signed Secure QR; JSON on stdout',
    )
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (input: string, options: { pdfPassword?: string }) => {
      const context = serviceContext(loadSettings());
      await printServiceJson(
        input,
        options,
        (upload) => verifyDocumentFile(context, upload),
        (report) => VERDICT_EXIT[report.verdict],
      );
    });
}
