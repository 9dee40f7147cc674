/**
 * CRYPTO_BTC (Bitcoin address) and CRYPTO_ETH (Ethereum address).
 *
 * Bitcoin, Base58Check (P2PKH `1...`, P2SH `3...`): 25 bytes, a version (0x00, 0x05), a 20-byte
 * hash and 4 checksum bytes, the first four of SHA-256(SHA-256(version + hash)), written in
 * Base58 without 0, O, I and l (26-35 characters). Bech32 (BIP-173, SegWit v0 `bc1q...`,
 * 20- or 32-byte programs) and Bech32m (BIP-350, v1-16 such as Taproot `bc1p...`, 2-40 bytes):
 * `bc`, `1`, the data in a 32-character alphabet and a 6-character BCH checksum, never mixed
 * case, at most 90 characters. Mainnet only: testnet addresses (`m`, `n`, `2`, `tb1`) hold no
 * money. The codecs are @scure/base's with @noble/hashes' SHA-256; python-stdnum's bitcoin
 * module refuses Bech32m, hence not its rule (the type's published rule).
 *
 * Ethereum: `0x` and 40 hex digits (a 20-byte account). EIP-55 writes a checksum into the case:
 * hash the lower-case hex with Keccak-256, and letter i is upper case iff nibble i of the hash
 * is 8 or more. All-lower and all-upper addresses carry no checksum and are taken, less surely;
 * mixed case that breaks the rule is refused (the type's published rule, EIP-55).
 *
 * More information: https://en.bitcoin.it/wiki/BIP_0173, https://eips.ethereum.org/EIPS/eip-55
 *
 *   BTC 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 valid, 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3 checksum
 *   ETH 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed valid, ...BeAeD (case flipped) checksum
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58, bech32, bech32m, createBase58check } from '@scure/base';
import type { Draw } from '../global-rule.js';
import { drawBelow, drawHex } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';
import type { RuleBehaviour } from './behaviour.js';

// ---- Bitcoin -----------------------------------------------------------------------------

const BASE58CHECK = createBase58check(sha256);
const BECH32_CHARS = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/**
 * Base58 from 1 or 3 with a letter somewhere (a long run of digits is a number), or `bc1` and
 * Bech32 characters in one case; not inside a longer word.
 */
const BTC =
  /(?<![0-9A-Za-z])(?:[13](?=[1-9]{0,34}[A-HJ-NP-Za-km-z])[1-9A-HJ-NP-Za-km-z]{25,34}|bc1[02-9ac-hj-np-z]{6,87}|BC1[02-9AC-HJ-NP-Z]{6,87})(?![0-9A-Za-z])/g;

/** Base58 letters whose two cases look alike (OCR confuses them): c k p s u v w x z. */
const CASE_LOOK_ALIKES = /[ckpsuvwxzCKPSUVWXZ]/g;

/**
 * The value with one look-alike letter's case flipped so that its checksum holds, if one does:
 * OCR read `1GX3DfkPMi...` for `1GX3DfKPMi...`. Ten-odd tries against a 32-bit checksum accept
 * a wrong value about once in 400 million.
 */
function caseRestored(value: string): Uint8Array | null {
  for (const m of value.matchAll(CASE_LOOK_ALIKES)) {
    const c = m[0];
    const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    const at = m.index;
    try {
      return BASE58CHECK.decode(value.slice(0, at) + flipped + value.slice(at + 1));
    } catch {
      // not this one
    }
  }
  return null;
}

function validateBase58(value: string): Validation {
  let rule = 'Base58Check: version 0x00/0x05, double SHA-256 checksum';
  let bytes: Uint8Array;
  try {
    bytes = BASE58CHECK.decode(value);
  } catch {
    const restored = caseRestored(value);
    if (!restored) return reject(rule, 'checksum');
    bytes = restored;
    rule += ' (one look-alike letter read in the wrong case)';
  }
  if (bytes.length !== 21) return reject(rule, 'length');
  const version = bytes[0];
  if (!((version === 0 && value.startsWith('1')) || (version === 5 && value.startsWith('3')))) {
    return reject(rule, 'prefix');
  }
  return accept(rule, 0.95);
}

function validateSegwit(value: string): Validation {
  const rule = 'Bech32 (v0) / Bech32m (v1-16) checksum, witness program length';
  if (value !== value.toLowerCase() && value !== value.toUpperCase()) {
    return reject(rule, 'format');
  }
  const lower = value.toLowerCase();
  if (lower.length > 90) return reject(rule, 'length');
  // v0 must checksum as Bech32, v1-16 as Bech32m (BIP-350): the witness version picks the codec.
  const version = BECH32_CHARS.indexOf(lower[3] ?? '');
  const codec = version === 0 ? bech32 : bech32m;
  const decoded = codec.decodeUnsafe(lower, 90);
  if (!decoded) return reject(rule, 'checksum');
  if (decoded.prefix !== 'bc') return reject(rule, 'prefix');
  if (version > 16) return reject(rule, 'format');
  const program = codec.fromWordsUnsafe(decoded.words.slice(1));
  if (!program) return reject(rule, 'format');
  const ok =
    version === 0 ? [20, 32].includes(program.length) : program.length >= 2 && program.length <= 40;
  return ok ? accept(rule, 0.95) : reject(rule, 'length');
}

function validateBtc(value: string): Validation {
  return /^bc1/i.test(value) ? validateSegwit(value) : validateBase58(value);
}

function randomBytes(draw: Draw, count: number): Uint8Array {
  return Uint8Array.from(draw(count));
}

/**
 * The same kind and length with a random payload and a broken checksum (C): Base58Check's last
 * checksum byte changed, Bech32's last character changed (BCH codes catch any one change).
 * There is no reserved address space, and testnet addresses are real on testnet.
 */
function pseudonymBtc(raw: string, draw: Draw): string {
  if (/^bc1/i.test(raw)) {
    const lower = raw.toLowerCase();
    const version = BECH32_CHARS.indexOf(lower[3] ?? 'q');
    const codec = version === 0 ? bech32 : bech32m;
    const length = codec.fromWordsUnsafe(codec.decodeUnsafe(lower, 90)?.words.slice(1) ?? []);
    const bytes = randomBytes(draw, length ? length.length : 20);
    const valid = codec.encode('bc', [version, ...codec.toWords(bytes)], 90);
    const last = BECH32_CHARS.indexOf(valid.at(-1) ?? 'q');
    const shift = 1 + drawBelow(draw, 31);
    const out = valid.slice(0, -1) + (BECH32_CHARS[(last + shift) % 32] ?? 'q');
    return raw === lower ? out : out.toUpperCase();
  }
  const version = raw.startsWith('3') ? 5 : 0;
  let out = '';
  // A Base58 length varies with the payload: draw a few times for the original's length.
  for (let attempt = 0; attempt < 16; attempt += 1) {
    const full = Uint8Array.from([version, ...randomBytes(draw, 20)]);
    const checksum = sha256(sha256(full)).slice(0, 4);
    checksum[3] = (checksum[3] ?? 0) ^ 1;
    out = base58.encode(Uint8Array.from([...full, ...checksum]));
    if (out.length === raw.length) break;
  }
  return out;
}

export const CRYPTO_BTC_RULE: RuleBehaviour = {
  pattern: BTC,
  compact: (raw) => raw,
  validate: validateBtc,
  labels: /bitcoin|\bbtc\b|wallet|address/i,
  pseudonym: pseudonymBtc,
};

// ---- Ethereum ----------------------------------------------------------------------------

/** `Ox` too: OCR reads the zero of the prefix as a capital O. */
const ETH = /(?<![0-9A-Za-z])[0O]x[0-9A-Fa-f]{40}(?![0-9A-Za-z])/g;

/** The EIP-55 casing of 40 hex digits. */
export function eip55(hex: string): string {
  const lower = hex.toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  return Array.from(lower, (c, i) => {
    const byte = hash[i >> 1] ?? 0;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    return nibble >= 8 ? c.toUpperCase() : c;
  }).join('');
}

function validateEth(value: string): Validation {
  const hex = value.slice(2);
  if (!/^[0-9A-Fa-f]{40}$/.test(hex)) {
    return reject('0x and 40 hex digits', hex.length === 40 ? 'format' : 'length');
  }
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) {
    return accept('0x and 40 hex digits, one case (no EIP-55 checksum to check)', 0.8);
  }
  const rule = '0x and 40 hex digits, EIP-55 mixed-case checksum (Keccak-256)';
  return eip55(hex) === hex ? accept(rule, 0.95) : reject(rule, 'checksum');
}

/**
 * A keyed-random 160-bit account (C, probabilistic: a collision with a used account is about
 * 2^-160) in mixed case that breaks EIP-55, so checksum-aware tools refuse it. The zero
 * address and the precompiles (0x...01-0x...0a) are avoided: they are well known.
 */
function pseudonymEth(raw: string, draw: Draw): string {
  let hex = drawHex(draw, 40);
  for (let attempt = 0; attempt < 16 && !/[a-f][^a-f]*[a-f]/.test(hex.slice(0, 38)); attempt += 1) {
    hex = drawHex(draw, 40); // two letters at least, and never 0x000...0a
  }
  const cased = Array.from(eip55(hex));
  const letters = cased.flatMap((c, i) => (/[a-fA-F]/.test(c) ? [i] : []));
  const flip = (i: number | undefined) => {
    if (i === undefined) return;
    const c = cased[i] ?? '';
    cased[i] = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
  };
  flip(letters[0]); // one letter in the wrong case breaks the checksum...
  const out = cased.join('');
  // ...and if that left a single case (read as "no checksum"), a second flip makes it mixed.
  if (out === out.toLowerCase() || out === out.toUpperCase()) flip(letters[1]);
  return raw.slice(0, 2) + cased.join('');
}

export const CRYPTO_ETH_RULE: RuleBehaviour = {
  pattern: ETH,
  compact: (raw) => raw.replace(/^O/, '0'),
  validate: validateEth,
  labels: /ethereum|\beth\b|wallet|address|erc-?20/i,
  pseudonym: pseudonymEth,
};
