/**
 * The module object MuPDF.js's WebAssembly build is instantiated with. The build reads it from
 * a global when it loads, so this must be evaluated before `mupdf` is; every import of MuPDF
 * goes through ./mupdf.ts, which guarantees that order.
 *
 * Its print hooks drop MuPDF's warnings ("repairing PDF document", ...), which it would
 * otherwise print straight to stdout/stderr and break the service's JSON log lines; failures
 * that matter surface as exceptions and become our own errors. Emscripten adds the module's
 * exports to this same object, which is how ./stext-lines.ts reads characters without
 * building a JavaScript object per character.
 */
const quiet = () => undefined;

export const mupdfModule: Record<string, unknown> = { print: quiet, printErr: quiet };

(globalThis as Record<string, unknown>)['$libmupdf_wasm_Module'] = mupdfModule;
