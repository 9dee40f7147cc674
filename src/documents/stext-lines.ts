/**
 * The lines and characters of a MuPDF structured-text page, each character with its quad.
 *
 * mupdf.js's `StructuredText.walk` builds a `Font` for every character it visits (a reference
 * kept in WebAssembly memory and an entry in a FinalizationRegistry), with arrays for its
 * origin, quad and colour: 290 ms for the characters of 50 letter pages, where the page's
 * text extraction itself takes 85 ms, and more under the garbage collector's load in a busy
 * document worker (a third of `/global/redact` on a text PDF). This reader calls the same
 * WebAssembly exports that `walk` calls, for the two things the text layer needs (the
 * character and its quad), and builds nothing else: each character's quad is read from
 * WebAssembly memory straight into the four corners the text layer keeps. It depends on the exports of the pinned
 * MuPDF.js build, not on its documented API: where one is missing, `walk` is used, and a test
 * holds both readers to the same answer.
 */
// Loaded first: the module object holds the exports once MuPDF has loaded.
import './mupdf.js';
import type { mupdf as MuPdf } from './mupdf.js';
import { mupdfModule } from './mupdf-module.js';
import { fromMupdfQuad } from './mupdf-quad.js';
import type { TextChar } from '../domain/text-layer.js';

export interface StextLine {
  /** The writing direction, a unit vector [dx, dy] (y down). */
  readonly direction: MuPdf.Point;
  /** Each character one UTF-16 code unit, as `walk` gives it, in page coordinates. */
  readonly chars: readonly TextChar[];
}

/** The exports this reader uses; `walk` (mupdf.js) uses the same ones. */
interface StextExports {
  readonly HEAPF32: Float32Array;
  _wasm_stext_page_get_first_block(page: number): number;
  _wasm_stext_block_get_next(block: number): number;
  _wasm_stext_block_get_type(block: number): number;
  _wasm_stext_block_get_first_line(block: number): number;
  _wasm_stext_line_get_next(line: number): number;
  _wasm_stext_line_get_dir(line: number): number;
  _wasm_stext_line_get_first_char(line: number): number;
  _wasm_stext_char_get_next(char: number): number;
  _wasm_stext_char_get_c(char: number): number;
  _wasm_stext_char_get_quad(char: number): number;
}

const FUNCTIONS = [
  '_wasm_stext_page_get_first_block',
  '_wasm_stext_block_get_next',
  '_wasm_stext_block_get_type',
  '_wasm_stext_block_get_first_line',
  '_wasm_stext_line_get_next',
  '_wasm_stext_line_get_dir',
  '_wasm_stext_line_get_first_char',
  '_wasm_stext_char_get_next',
  '_wasm_stext_char_get_c',
  '_wasm_stext_char_get_quad',
] as const;

/** MuPDF's block type of text (fz_stext_block's FZ_STEXT_BLOCK_TEXT). */
const TEXT_BLOCK = 0;

function stextExports(module: Record<string, unknown>): StextExports | null {
  const complete =
    module['HEAPF32'] instanceof Float32Array &&
    FUNCTIONS.every((name) => typeof module[name] === 'function');
  return complete ? (module as unknown as StextExports) : null;
}

const exportsFound = stextExports(mupdfModule);

/** The point at WebAssembly address `pointer` (the heap's view is replaced as memory grows). */
function pointAt(lib: StextExports, pointer: number): MuPdf.Point {
  const at = pointer >> 2;
  return [lib.HEAPF32[at] ?? 0, lib.HEAPF32[at + 1] ?? 0];
}

/** The lines of the text blocks of `text`, read from the WebAssembly exports. */
function exportLines(lib: StextExports, text: MuPdf.StructuredText): StextLine[] {
  const lines: StextLine[] = [];
  const page = text.pointer as unknown as number;
  for (
    let b = lib._wasm_stext_page_get_first_block(page);
    b;
    b = lib._wasm_stext_block_get_next(b)
  ) {
    if (lib._wasm_stext_block_get_type(b) !== TEXT_BLOCK) continue;
    for (let l = lib._wasm_stext_block_get_first_line(b); l; l = lib._wasm_stext_line_get_next(l)) {
      const direction = pointAt(lib, lib._wasm_stext_line_get_dir(l));
      const chars: TextChar[] = [];
      for (
        let ch = lib._wasm_stext_line_get_first_char(l);
        ch;
        ch = lib._wasm_stext_char_get_next(ch)
      ) {
        // As walk does: a code point beyond the first plane comes out as one code unit.
        const text = String.fromCharCode(lib._wasm_stext_char_get_c(ch));
        const quad = fromMupdfQuad(lib.HEAPF32, lib._wasm_stext_char_get_quad(ch) >> 2);
        chars.push({ text, quad, confidence: 1 });
      }
      lines.push({ direction, chars });
    }
  }
  return lines;
}

/** The same lines through mupdf.js's documented `walk`. */
export function walkedLines(text: MuPdf.StructuredText): StextLine[] {
  const lines: StextLine[] = [];
  let chars: TextChar[] = [];
  text.walk({
    beginLine: (_bbox, _wmode, direction) => {
      chars = [];
      lines.push({ direction, chars });
    },
    onChar: (c, _origin, _font, _size, quad) => {
      chars.push({ text: c, quad: fromMupdfQuad(quad), confidence: 1 });
    },
  });
  return lines;
}

/** Whether `stextLines` reads the WebAssembly exports (false: it walks). */
export const readsExports = exportsFound !== null;

/** Every line of the text blocks of `text`, in MuPDF's order, with its characters. */
export function stextLines(text: MuPdf.StructuredText): StextLine[] {
  return exportsFound ? exportLines(exportsFound, text) : walkedLines(text);
}
