/**
 * `parda verify PATH...`: the verification service on local files, no key. One file: the
 * Verification response on stdout; exit status 0 pass, 4 review, 5 fail, 3 no Aadhaar card,
 * 1 error. Several, folders or patterns: the folder mode, one `<name>_verification.json` per
 * input in `-o OUTDIR`, each row of the manifest with its verdict; the exit status then says
 * only whether every file could be checked (0) or not (1).
 */
import type { Command } from 'commander';
import { verifyDocumentFile } from '../services/verify-document.js';
import { addJsonFolderOptions, runJsonCommand } from './extract.js';
import type { BatchFlags } from './batch-run.js';

export const VERDICT_EXIT = { pass: 0, review: 4, fail: 5 } as const;

export function registerVerifyCommand(program: Command): void {
  addJsonFolderOptions(
    program
      .command('verify <paths...>')
      .description(
        'verify Aadhaar cards in local JPEG, PNG or PDF files against their signed Secure QR; JSON on stdout (one file) or in -o OUTDIR',
      ),
  )
    .option('--pdf-password <password>', 'password of a protected PDF')
    .action(async (paths: string[], options: BatchFlags) => {
      await runJsonCommand(paths, options, {
        name: 'verify',
        suffix: '_verification',
        // `checked`, not `verified`: a card that fails its checks was checked all the same.
        words: { done: 'checked', nothingFound: 'no_document_detected' },
        options: {},
        service: verifyDocumentFile,
        exitCode: (report) => VERDICT_EXIT[report.verdict],
        fields: (report) => ({ verdict: report.verdict }),
      });
    });
}
