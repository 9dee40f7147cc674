/**
 * Decoded size of a PDF stream, measured under a byte budget: the filter chain is decoded here
 * (not by MuPDF, which would inflate a bomb in full) and stops as soon as the budget is spent.
 */
import { constants, inflateSync } from 'node:zlib';

/** The stream decodes to more bytes than the budget left. */
export class OverBudget extends Error {
  override name = 'OverBudget';
}

/** Image codecs end the measurement: their output is bounded by the image's declared pixels. */
const IMAGE_CODECS = new Set(['DCTDecode', 'JPXDecode', 'JBIG2Decode', 'CCITTFaxDecode']);

/** Inline-image abbreviations, which MuPDF also accepts on streams. */
const ABBREVIATIONS: Record<string, string> = {
  Fl: 'FlateDecode',
  LZW: 'LZWDecode',
  RL: 'RunLengthDecode',
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
  DCT: 'DCTDecode',
  CCF: 'CCITTFaxDecode',
};

export interface StreamFilter {
  readonly name: string;
  /** LZWDecode's /EarlyChange (1 unless the parameters say 0). */
  readonly earlyChange?: number;
}

/** Output that refuses to grow past the budget. */
class Output {
  private bytes: Uint8Array;
  size = 0;
  constructor(
    private readonly budget: number,
    hint: number,
  ) {
    this.bytes = new Uint8Array(Math.max(16, Math.min(budget + 1, hint)));
  }

  reserve(count: number): void {
    const needed = this.size + count;
    if (needed > this.budget) throw new OverBudget();
    if (needed <= this.bytes.length) return;
    const grown = new Uint8Array(Math.min(this.budget, Math.max(needed, this.bytes.length * 2)));
    grown.set(this.bytes.subarray(0, this.size));
    this.bytes = grown;
  }

  push(byte: number): void {
    this.reserve(1);
    this.bytes[this.size++] = byte;
  }

  at(index: number): number {
    return this.bytes[index] ?? 0;
  }

  set(index: number, byte: number): void {
    this.bytes[index] = byte;
  }

  result(): Uint8Array {
    return this.bytes.subarray(0, this.size);
  }
}

function isOverLimit(error: unknown): boolean {
  return (
    error instanceof RangeError || (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE'
  );
}

function inflateBounded(input: Uint8Array, budget: number): Buffer {
  try {
    // Z_SYNC_FLUSH: a cut-off stream yields what it holds, as it does in MuPDF.
    return inflateSync(input, {
      maxOutputLength: Math.max(1, budget),
      finishFlush: constants.Z_SYNC_FLUSH,
    });
  } catch (error) {
    if (isOverLimit(error)) throw new OverBudget();
    throw error;
  }
}

function flate(input: Uint8Array, budget: number): Uint8Array {
  let output: Buffer;
  try {
    output = inflateBounded(input, budget);
  } catch (error) {
    if (error instanceof OverBudget || input.length === 0) throw error;
    // Corrupt data: MuPDF keeps what decoded before the damage, so measure the longest prefix
    // that inflates cleanly (a truncated prefix is not an error under Z_SYNC_FLUSH).
    let [good, bad] = [0, input.length];
    let best: Buffer = Buffer.alloc(0);
    while (bad - good > 1) {
      const middle = Math.floor((good + bad) / 2);
      try {
        best = inflateBounded(input.subarray(0, middle), budget);
        good = middle;
      } catch (inner) {
        if (inner instanceof OverBudget) throw inner;
        bad = middle;
      }
    }
    output = best;
  }
  if (output.length > budget) throw new OverBudget();
  return output;
}

function lzw(input: Uint8Array, budget: number, earlyChange: number): Uint8Array {
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const length = new Int32Array(4096);
  for (let code = 0; code < 256; code += 1)
    [prefix[code], suffix[code], length[code]] = [-1, code, 1];
  const out = new Output(budget, input.length * 4);
  let [next, width, previous, accumulator, bits] = [258, 9, -1, 0, 0];
  for (const byte of input) {
    accumulator = ((accumulator << 8) | byte) & 0xffffff;
    bits += 8;
    while (bits >= width) {
      const code = (accumulator >>> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      if (code === 256) {
        [next, width, previous] = [258, 9, -1];
        continue;
      }
      if (code === 257) return out.result();
      // code === next is the KwKwK case: the previous string plus its own first byte.
      const known = code < next;
      const source = known ? code : previous;
      if ((!known && (code !== next || previous < 0)) || source < 0) return out.result();
      const sourceLength = length[source] ?? 1;
      const start = out.size;
      out.reserve(sourceLength + (known ? 0 : 1));
      for (
        let at = source, i = sourceLength - 1;
        at >= 0 && i >= 0;
        at = prefix[at] ?? -1, i -= 1
      ) {
        out.set(start + i, suffix[at] ?? 0);
      }
      out.size += sourceLength;
      if (!known) out.push(out.at(start));
      if (previous >= 0 && next < 4096) {
        prefix[next] = previous;
        suffix[next] = out.at(start);
        length[next] = (length[previous] ?? 1) + 1;
        next += 1;
      }
      if (next + earlyChange >= 1 << width && width < 12) width += 1;
      previous = code;
    }
  }
  return out.result();
}

function runLength(input: Uint8Array, budget: number): Uint8Array {
  const out = new Output(budget, input.length * 2);
  for (let at = 0; at < input.length;) {
    const run = input[at] ?? 128;
    if (run === 128) break;
    if (run < 128) {
      for (let i = 1; i <= run + 1 && at + i < input.length; i += 1) out.push(input[at + i] ?? 0);
      at += run + 2;
    } else {
      const value = input[at + 1] ?? 0;
      for (let i = 0; i < 257 - run; i += 1) out.push(value);
      at += 2;
    }
  }
  return out.result();
}

const WHITESPACE = new Set([0, 9, 10, 12, 13, 32]);

function asciiHex(input: Uint8Array, budget: number): Uint8Array {
  const out = new Output(budget, input.length / 2);
  let high = -1;
  for (const byte of input) {
    if (byte === 0x3e) break; // '>'
    if (WHITESPACE.has(byte)) continue;
    const digit = Number.parseInt(String.fromCharCode(byte), 16);
    if (Number.isNaN(digit)) break;
    if (high < 0) {
      high = digit;
    } else {
      out.push(high * 16 + digit);
      high = -1;
    }
  }
  if (high >= 0) out.push(high * 16);
  return out.result();
}

function ascii85(input: Uint8Array, budget: number): Uint8Array {
  const out = new Output(budget, input.length);
  const group: number[] = [];
  const flush = (count: number): void => {
    while (group.length < 5) group.push(84);
    const value = group.reduce((sum, digit) => sum * 85 + digit, 0);
    for (let i = 0; i < count; i += 1) out.push(Math.floor(value / 256 ** (3 - i)) % 256);
    group.length = 0;
  };
  for (const byte of input) {
    if (byte === 0x7e) break; // '~' of '~>'
    if (WHITESPACE.has(byte)) continue;
    if (byte === 0x7a && group.length === 0) {
      for (let i = 0; i < 4; i += 1) out.push(0); // 'z'
      continue;
    }
    if (byte < 0x21 || byte > 0x75) break;
    group.push(byte - 0x21);
    if (group.length === 5) flush(4);
  }
  if (group.length > 1) flush(group.length - 1);
  return out.result();
}

/**
 * Bytes `raw` decodes to through `filters`, never materialising more than `budget` bytes; throws
 * `OverBudget` past it. Predictors are ignored (they never grow the data). Image codecs and
 * filters MuPDF does not know end the chain: the size reached so far is returned.
 */
export function decodedSize(
  raw: Uint8Array,
  filters: readonly StreamFilter[],
  budget: number,
): number {
  let data = raw;
  for (const filter of filters) {
    const name = ABBREVIATIONS[filter.name] ?? filter.name;
    if (IMAGE_CODECS.has(name)) break;
    if (name === 'Crypt') continue; // MuPDF's raw stream is already decrypted
    if (name === 'FlateDecode') data = flate(data, budget);
    else if (name === 'LZWDecode') data = lzw(data, budget, filter.earlyChange ?? 1);
    else if (name === 'RunLengthDecode') data = runLength(data, budget);
    else if (name === 'ASCIIHexDecode') data = asciiHex(data, budget);
    else if (name === 'ASCII85Decode') data = ascii85(data, budget);
    else break;
  }
  if (data.length > budget) throw new OverBudget();
  return data.length;
}
