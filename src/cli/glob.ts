/**
 * Glob patterns for the folder mode. A shell expands an unquoted glob before parda sees it; this
 * is for a quoted one (and for shells that do not expand). Node 20 has no `fs.glob`, and its
 * `path.matchesGlob` prints an ExperimentalWarning on stderr, so the few forms needed are
 * matched here:
 *
 * - `*` any characters of one name, `?` one character;
 * - `[abc]`, `[a-z]`, `[!a]` (or `[^a]`) one character of (or not of) a set;
 * - `{png,jpg}` one of the alternatives (not nested);
 * - `**` as a whole segment: any number of folders, none included.
 *
 * Separators are `/` (and `\` on Windows). A name starting with a dot is matched only by a
 * segment that starts with a dot, as in shells: hidden files stay out of a pattern's results.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

const MAGIC = /[*?[{]/;

/** `**`: any depth of folders. */
const ANY_DEPTH = Symbol('**');

interface NamePattern {
  readonly regexp: RegExp;
  /** The segment starts with a dot: it may match hidden names. */
  readonly dotted: boolean;
}

type Segment = NamePattern | typeof ANY_DEPTH;

export function isGlob(text: string): boolean {
  return MAGIC.test(text);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** One segment (no separator in it) as an anchored regular expression. */
function namePattern(segment: string): NamePattern {
  let source = '';
  for (let i = 0; i < segment.length; i += 1) {
    const ch = segment.charAt(i);
    const close =
      ch === '[' ? segment.indexOf(']', i + 2) : ch === '{' ? segment.indexOf('}', i) : -1;
    if (ch === '*') {
      source += '.*';
    } else if (ch === '?') {
      source += '.';
    } else if (ch === '[' && close > 0) {
      // `]` right after `[` belongs to the set, hence the search from i + 2.
      const body = segment.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      const members = (negated ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&');
      source += `[${negated ? '^' : ''}${members}]`;
      i = close;
    } else if (ch === '{' && close > 0) {
      const alternatives = segment
        .slice(i + 1, close)
        .split(',')
        .map(escapeRegExp);
      source += `(?:${alternatives.join('|')})`;
      i = close;
    } else {
      // An unmatched `[` or `{` is an ordinary character.
      source += escapeRegExp(ch);
    }
  }
  return { regexp: new RegExp(`^${source}$`, 'u'), dotted: segment.startsWith('.') };
}

const SEPARATORS = path.sep === '\\' ? /[\\/]/ : /\//;

/**
 * The files a pattern matches (regular files, or links to them), in name order, and the folder
 * the pattern starts from: its leading segments without wildcards (`scans/2024` for
 * `scans/2024/**\/*.pdf`), where the folder mode mirrors paths from. Folders reached through a
 * link are not entered (a link to a parent would never end).
 */
export async function expandGlob(pattern: string): Promise<{ root: string; files: string[] }> {
  const parts = pattern.split(SEPARATORS);
  const fixed = parts.findIndex((part) => isGlob(part));
  const literal = fixed < 0 ? parts.length : fixed;
  const rootParts = parts.slice(0, literal);
  const root =
    rootParts.length === 0
      ? '.'
      : rootParts.length === 1 && rootParts[0] === ''
        ? path.sep
        : rootParts.join(path.sep);
  const segments: Segment[] = parts
    .slice(literal)
    .filter((part) => part !== '')
    .map((part) => (part === '**' ? ANY_DEPTH : namePattern(part)));
  // A trailing `**` means every file below, as `**/*` does.
  if (segments.at(-1) === ANY_DEPTH) segments.push(namePattern('*'));
  const found = new Set<string>();
  await collect(root, segments, found);
  return { root, files: [...found] };
}

async function entriesOf(folder: string) {
  try {
    const entries = await fs.readdir(folder, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    // A folder that vanished or cannot be read simply matches nothing.
    return [];
  }
}

async function isFile(file: string, entry: { isFile(): boolean; isSymbolicLink(): boolean }) {
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) return false;
  return fs.stat(file).then(
    (stat) => stat.isFile(),
    () => false,
  );
}

async function collect(folder: string, segments: readonly Segment[], found: Set<string>) {
  const [head, ...rest] = segments;
  if (head === undefined) return;
  const entries = await entriesOf(folder);
  if (head === ANY_DEPTH) {
    await collect(folder, rest, found); // no folder at all
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith('.')) {
        await collect(path.join(folder, entry.name), segments, found);
      }
    }
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') && !head.dotted) continue;
    if (!head.regexp.test(entry.name)) continue;
    const full = path.join(folder, entry.name);
    if (rest.length > 0) {
      if (entry.isDirectory()) await collect(full, rest, found);
    } else if (await isFile(full, entry)) {
      found.add(full);
    }
  }
}
