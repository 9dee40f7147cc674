/**
 * The PATH arguments of a file command: whether they ask for the folder mode, and the files
 * they come to. A file named on the command line is always taken (the service then judges its
 * content by its bytes, as the API does); folders and glob patterns yield only the files whose
 * extension the command accepts, so that a folder's notes and spreadsheets are not reported as
 * failures. Hidden names and the output folder are never walked into.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { WrittenFormat } from '../domain/formats.js';
import type { UploadedDocument } from '../services/context.js';
import { expandGlob, isGlob } from './glob.js';
import { UsageError } from './parse.js';

/** The names each format goes by. */
const NAME_EXTENSIONS: Record<WrittenFormat, readonly string[]> = {
  jpeg: ['jpg', 'jpeg'],
  png: ['png'],
  pdf: ['pdf'],
  webp: ['webp'],
  tiff: ['tif', 'tiff'],
  bmp: ['bmp'],
};

/** Lower-case extensions, without the dot, of the formats given. */
export function extensionsOf(formats: readonly WrittenFormat[]): ReadonlySet<string> {
  return new Set(formats.flatMap((format) => NAME_EXTENSIONS[format]));
}

/** The formats as a reader would list them: `JPEG, PNG or PDF`. */
export function formatList(formats: readonly WrittenFormat[]): string {
  const names = formats.map((format) => format.toUpperCase());
  return names.length < 2
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;
}

type Kind = 'file' | 'folder' | 'missing';

async function kindOf(target: string): Promise<Kind> {
  try {
    const stat = await fs.stat(target);
    return stat.isDirectory() ? 'folder' : 'file';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
}

const endsWithSeparator = (text: string) => /[\\/]$/.test(text);

/**
 * Whether PATH... and the flags ask for the folder mode. One existing file (or one missing path
 * that is no pattern: reading it fails as it always did) with no `-o`, or with an `-o` that is
 * not a folder, is the single-file mode, unchanged; so is one file when the command has no `-o`
 * of its own (`outputIsFile` false: extract and verify print to stdout). Anything else is the
 * folder mode: several paths, a folder, a pattern, `--resume`, or an `-o` naming a folder (an
 * existing one, or any path ending in a separator; for extract and verify, any `-o`).
 */
export async function wantsFolderMode(
  paths: readonly string[],
  flags: { readonly output?: string; readonly resume?: boolean },
  outputIsFile: boolean,
): Promise<boolean> {
  const [only] = paths;
  if (paths.length !== 1 || only === undefined || flags.resume === true) return true;
  const kind = await kindOf(only);
  if (kind === 'folder' || (kind === 'missing' && isGlob(only))) return true;
  if (flags.output === undefined) return false;
  if (!outputIsFile || endsWithSeparator(flags.output)) return true;
  return (await kindOf(flags.output)) === 'folder';
}

export interface InputFile {
  readonly absolute: string;
  /**
   * The path below the inputs' common folder, `/`-separated: where its output goes under
   * OUTDIR, and its key in manifest.json.
   */
  readonly relative: string;
}

export interface Inputs {
  readonly files: readonly InputFile[];
  /** The deepest folder holding every input: what OUTDIR mirrors. */
  readonly base: string;
}

export interface InputRules {
  /** The formats the command accepts: folders and patterns yield files with their extensions. */
  readonly formats: readonly WrittenFormat[];
  /** The absolute output folder: skipped when walking. */
  readonly outputDir: string;
}

const hidden = (name: string) => name.startsWith('.');
const accepted = (file: string, rules: InputRules) =>
  extensionsOf(rules.formats).has(path.extname(file).slice(1).toLowerCase());

/**
 * Every file below `folder` with an accepted extension, in name order. Hidden names and the
 * output folder are skipped; folders reached through a link are not entered (a link to a
 * parent would never end), files reached through one are taken.
 */
async function walk(folder: string, rules: InputRules, found: string[], top = true): Promise<void> {
  let entries;
  try {
    entries = await fs.readdir(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    // A folder named on the command line must be readable; one found inside it is reported
    // and left out, rather than stopping a long run over one locked subfolder.
    if (top) throw new UsageError(`cannot read the folder ${folder} (${code})`);
    console.error(`parda: skipped the folder ${folder}: it cannot be read (${code})`);
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (hidden(entry.name)) continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (full !== rules.outputDir) await walk(full, rules, found, false);
    } else if (accepted(full, rules)) {
      const isFile =
        entry.isFile() ||
        (entry.isSymbolicLink() &&
          (await fs.stat(full).then(
            (stat) => stat.isFile(),
            () => false,
          )));
      if (isFile) found.push(full);
    }
  }
}

/** The deepest folder that holds every one of `folders` (absolute paths). */
function commonFolder(folders: readonly string[]): string {
  const split = folders.map((folder) => folder.split(path.sep));
  const [first = []] = split;
  let depth = first.length;
  for (const parts of split) {
    let same = 0;
    while (same < Math.min(depth, parts.length) && parts[same] === first[same]) same += 1;
    depth = same;
  }
  return first.slice(0, depth).join(path.sep) || path.sep;
}

/**
 * The files PATH... name, each once, in the order given (a folder's and a pattern's in name
 * order). A path that does not exist, or a pattern that matches no file of an accepted format, is a usage error: a
 * typo should stop the run before any work rather than be reported at the end.
 */
export async function expandInputs(paths: readonly string[], rules: InputRules): Promise<Inputs> {
  const files: string[] = [];
  const roots: string[] = [];
  for (const given of paths) {
    const absolute = path.resolve(given);
    const kind = await kindOf(absolute);
    if (kind === 'file') {
      files.push(absolute);
      roots.push(path.dirname(absolute));
    } else if (kind === 'folder') {
      await walk(absolute, rules, files);
      roots.push(absolute);
    } else if (isGlob(given)) {
      const { root, files: matched } = await expandGlob(given);
      const outside = (file: string) => !file.startsWith(rules.outputDir + path.sep);
      const taken = matched
        .map((file) => path.resolve(file))
        .filter((file) => accepted(file, rules) && outside(file));
      if (taken.length === 0) {
        throw new UsageError(`${given} matches no ${formatList(rules.formats)} file`);
      }
      files.push(...taken);
      roots.push(path.resolve(root));
    } else {
      throw new UsageError(`no such file or folder: ${given}`);
    }
  }
  const unique = [...new Set(files)];
  const base = roots.length === 0 ? process.cwd() : commonFolder(roots);
  return {
    base,
    files: unique.map((absolute) => ({
      absolute,
      relative: path.relative(base, absolute).split(path.sep).join('/'),
    })),
  };
}

/** A local file as the services take an upload: its base name stands for the client's. */
export function localUpload(input: string, bytes: Buffer, pdfPassword?: string): UploadedDocument {
  return {
    bytes,
    filename: path.basename(input),
    ...(pdfPassword === undefined ? {} : { pdfPassword }),
  };
}
