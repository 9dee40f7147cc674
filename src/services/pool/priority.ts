/**
 * How far below the HTTP thread document work runs (a nice value, 0 to 19). The document
 * workers and the OCR thread (whose onnxruntime threads inherit it) take it.
 */
export const WORKER_NICE = 10;
