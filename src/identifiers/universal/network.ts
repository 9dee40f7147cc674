/**
 * IP_ADDRESS (IPv4 or IPv6 address) and MAC_ADDRESS (IEEE 802 hardware address).
 *
 * IPv4: four decimal octets 0-255 joined by dots (no leading zeros: `010` reads as octal in
 * some tools), optionally `/0-32`. IPv6 (RFC 4291 text form): eight groups of up to four hex
 * digits joined by colons, one run of zero groups shortened to `::`, an IPv4 tail allowed,
 * optionally a zone `%eth0` and `/0-128`. The syntax is node's `net.isIP`; the finder only takes
 * colon runs with a `::` or all eight groups, so clock times (`12:30:45`) are no candidates.
 * A dotted quad is also a version or section number (`1.2.3.4`): it is less sure than an IPv6.
 *
 * MAC: six octets in hex, `xx:xx:xx:xx:xx:xx`, `xx-xx-...` (one separator throughout) or
 * Cisco's `xxxx.xxxx.xxxx`. Bit 0 of the first octet is I/G (1: group, no single device).
 * All-zero and broadcast `FF:...:FF` are no device's address (Presidio rejects them too).
 *
 * The documentation ranges are the stand-ins' space (§0 R) and are refused as `reserved`, so a
 * second pass leaves them: IPv4 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 (RFC 5737), IPv6
 * 2001:db8::/32 (RFC 3849) and 3fff::/20 (RFC 9637); MAC 00-00-5E-00-53-xx (unicast) and
 * 01-00-5E-90-10-xx (multicast) (RFC 9542). Private ranges (RFC 1918) are real addresses inside
 * networks and are no stand-ins. Source: the type's published rule.
 *
 * More information: https://www.rfc-editor.org/rfc/rfc4291, https://www.rfc-editor.org/rfc/rfc9542
 *
 *   10.20.30.40, fe80::1ff:fe23:4567:890a, 3c:22:fb:1a:2b:3c   valid
 *   256.1.1.1 (format), 192.0.2.7 (reserved), 00-00-5E-00-53-01 (reserved)   invalid
 */
import { isIP } from 'node:net';
import type { Draw } from '../global-rule.js';
import type { FindHints, Span } from '../rule.js';
import { drawBelow, drawHex, reshape } from '../stand-in.js';
import { accept, reject, type Validation } from '../validation.js';
import type { RuleBehaviour } from './behaviour.js';

// ---- IP ----------------------------------------------------------------------------------

/** A dotted quad, not cut out of a longer dotted run (`1.2.3.4.5`, OIDs). */
const IPV4 =
  /(?<![0-9A-Za-z.])(?:[0-9]{1,3}\.){3}[0-9]{1,3}(?:\/[0-9]{1,2})?(?![0-9A-Za-z]|\.[0-9])/g;
/** A run of hex groups and colons (an IPv4 tail, zone and prefix allowed): one class, linear. */
const IPV6 =
  /(?<![0-9A-Za-z:.])[0-9A-Fa-f]{0,4}:[0-9A-Fa-f:.]*[0-9A-Fa-f:](?:%[0-9A-Za-z]+)?(?:\/[0-9]{1,3})?(?![0-9A-Za-z:])/g;

/** `version 1.2.3.4`, `v1.2.3.4`, `section 3.1.2.4`: a number of parts, no address. */
const VERSION_BEFORE = /(?:\bv|\bver(?:sion)?\.?\s*|\brelease\s*|\bsection\s*|§\s*)$/i;

function* findIp(text: string, hints: FindHints): Iterable<Span> {
  const spans: Span[] = [];
  for (const m of text.matchAll(IPV4)) {
    if (VERSION_BEFORE.test(text.slice(Math.max(0, m.index - 12), m.index))) continue;
    spans.push({ start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(IPV6)) {
    const address = m[0].replace(/[%/].*$/, '');
    const colons = address.split(':').length - 1;
    if (
      address.includes('::') ||
      colons === 7 ||
      (colons === 6 && address.includes('.')) ||
      (hints.ocr === true && lostColon(address))
    ) {
      spans.push({ start: m.index, end: m.index + m[0].length });
    }
  }
  yield* spans.sort((a, b) => a.start - b.start);
}

/**
 * Six or seven hex groups with no `::`, two of them of three or four digits: an IPv6 address
 * whose `::` OCR read as one colon (`2a01:c6cf:3113:2385:4851:ed5`). Pairs of digits (a MAC
 * address, a hex dump) and times are not taken; nor is such a run in typed text, where it is
 * no address (findIp asks for it on OCR readings only).
 */
function lostColon(address: string): boolean {
  if (address.includes('::')) return false;
  const groups = address.split(':');
  return (
    (groups.length === 6 || groups.length === 7) &&
    groups.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g)) &&
    groups.filter((g) => g.length >= 3).length >= 2
  );
}

/** The eight 16-bit groups of a valid IPv6 address (zone and prefix removed). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text =
      text.slice(0, tail.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const zeros = rest === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
}

function reservedIp(address: string, version: number): boolean {
  if (version === 4) return /^(?:192\.0\.2|198\.51\.100|203\.0\.113)\./.test(address);
  const [g0 = 0, g1 = 0] = ipv6Groups(address);
  return (g0 === 0x2001 && g1 === 0x0db8) || (g0 === 0x3fff && g1 >> 12 === 0);
}

function validateIp(value: string): Validation {
  const rule = 'IPv4 dotted quad or IPv6 RFC 4291 text form (node net.isIP), prefix length';
  const [address = '', prefix] = value.split('/');
  // Where a lost colon stood is unknown; put back at the last colon, the leading groups (which
  // the reserved ranges are about) keep their places, and the address is covered whole anyway.
  const lost = isIP(address) === 0 && lostColon(address);
  const read = lost ? address.replace(/:(?=[^:]*$)/, '::') : address;
  const version = isIP(read);
  const note = lost ? ' (one colon of :: lost in reading)' : '';
  if (version === 0) return reject(rule, 'format');
  if (prefix !== undefined && Number(prefix) > (version === 4 ? 32 : 128)) {
    return reject(rule, 'format');
  }
  if (reservedIp(read.replace(/%.*$/, ''), version)) return reject(rule, 'reserved');
  if (lost) return accept(rule + note, 0.6);
  return accept(rule, version === 4 ? 0.75 : 0.85);
}

/**
 * IPv4: an address of the three RFC 5737 blocks (768 in all); IPv6: 2001:db8::/32 (RFC 3849),
 * compressed if the original was, in its case. Prefix length and zone are kept.
 */
function pseudonymIp(raw: string, draw: Draw): string {
  const suffix = /[%/].*$/.exec(raw)?.[0] ?? '';
  const address = raw.slice(0, raw.length - suffix.length);
  if (isIP(address) === 4) {
    const block = ['192.0.2', '198.51.100', '203.0.113'][drawBelow(draw, 3)] ?? '192.0.2';
    return `${block}.${drawBelow(draw, 256)}${suffix}`;
  }
  const group = () => drawHex(draw, 4).replace(/^0+(?=.)/, '');
  const out = address.includes('::')
    ? `2001:db8::${group()}:${group()}`
    : `2001:0db8:${Array.from({ length: 6 }, () => drawHex(draw, 4)).join(':')}`;
  const upper = /[A-F]/.test(address) && !/[a-f]/.test(address);
  return (upper ? out.toUpperCase() : out) + suffix;
}

export const IP_ADDRESS_RULE: RuleBehaviour = {
  find: findIp,
  compact: (raw) => raw,
  validate: validateIp,
  labels: /\bip\b|ip\s*address|ipv[46]|address|host|server|client/i,
  pseudonym: pseudonymIp,
};

// ---- MAC ---------------------------------------------------------------------------------

const H = '[0-9A-Fa-f]';
/** One separator used throughout (the back-reference), never part of a longer hex run. */
const MAC = new RegExp(
  `(?<![0-9A-Za-z]|${H}[:.-])(?:${H}{2}([:-])${H}{2}(?:\\1${H}{2}){4}|${H}{4}\\.${H}{4}\\.${H}{4})(?![0-9A-Za-z]|[:.-]${H})`,
  'g',
);

function validateMac(value: string): Validation {
  const rule = 'six hex octets (IEEE 802), not null or broadcast';
  if (!/^[0-9A-F]{12}$/.test(value)) return reject(rule, 'format');
  if (/^0{12}$|^F{12}$/.test(value)) return reject(rule, 'format');
  if (/^00005E0053|^01005E9010/.test(value)) return reject(rule, 'reserved');
  // A group (multicast) address names no single device.
  const group = (parseInt(value.slice(0, 2), 16) & 1) === 1;
  return accept(rule, group ? 0.6 : 0.85);
}

/**
 * RFC 9542's documentation addresses (R): 00-00-5E-00-53-xx for a unicast original,
 * 01-00-5E-90-10-xx for a multicast one (256 each), in the original's separators and case.
 * Not a locally administered address: phones randomise their Wi-Fi MACs into that space.
 */
function pseudonymMac(raw: string, draw: Draw): string {
  const value = raw.replace(/[^0-9A-Fa-f]/g, '');
  const group = (parseInt(value.slice(0, 2), 16) & 1) === 1;
  return reshape(raw, (group ? '01005E9010' : '00005E0053') + drawHex(draw, 2).toUpperCase());
}

export const MAC_ADDRESS_RULE: RuleBehaviour = {
  pattern: MAC,
  compact: (raw) => raw.replace(/[:.-]/g, '').toUpperCase(),
  validate: validateMac,
  labels: /\bmac\b|hardware|ethernet|wi-?fi|bssid|physical\s+address/i,
  pseudonym: pseudonymMac,
};
