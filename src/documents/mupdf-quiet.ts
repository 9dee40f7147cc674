/**
 * MuPDF's WebAssembly build prints its warnings ("repairing PDF document", ...) straight to
 * stdout/stderr, which would break the service's JSON log lines. Its module reads this
 * global for print hooks when it loads, so this must be evaluated before `mupdf` is; every
 * import of MuPDF goes through ./mupdf.ts, which guarantees that order. The warnings are
 * dropped: failures that matter surface as exceptions and become our own errors.
 */
const quiet = () => undefined;
(globalThis as Record<string, unknown>)['$libmupdf_wasm_Module'] = {
  print: quiet,
  printErr: quiet,
};
