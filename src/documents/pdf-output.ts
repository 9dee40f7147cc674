/**
 * The one way a PDF leaves the service: what Parda does not read is dropped (embedded files,
 * file-carrying annotations, scripts and automatic actions), then a full save that writes every
 * kept object anew (garbage collected, no incremental update), so that nothing after the final
 * `%%EOF` and no unreferenced object of the input survives.
 */
import { mupdf } from './mupdf.js';

/** Annotations that hold a file or media stream of their own. */
const FILE_CARRIERS = new Set(['FileAttachment', 'Sound', 'Movie', 'Screen', 'RichMedia', '3D']);
/** Actions that only move within the document or open a link; every other kind is removed. */
const INERT_ACTIONS = new Set(['GoTo', 'URI', 'Named']);

const nameOf = (value: mupdf.PDFObject): string => (value.isName() ? value.asName() : '');

/** Removes the automatic actions (AA) and any action (A) that is not inert. */
function dropActions(dict: mupdf.PDFObject): void {
  dict.delete('AA');
  const action = dict.get('A');
  if (!action.isNull() && !INERT_ACTIONS.has(nameOf(action.get('S')))) dict.delete('A');
}

// Indirect references need no resolving: MuPDF resolves them in get, delete and the is* tests.

/** The keys through which a file-carrying annotation holds its file or media. */
const FILE_KEYS = ['FS', 'Sound', 'Movie', 'RichMediaContent', '3DD', 'A', 'AA'];

const carriesFile = (annot: mupdf.PDFObject) => FILE_CARRIERS.has(nameOf(annot.get('Subtype')));

function cleanAnnotations(page: mupdf.PDFObject): void {
  const annots = page.get('Annots');
  if (!annots.isArray()) return;
  for (let i = annots.length - 1; i >= 0; i -= 1) {
    const annot = annots.get(i);
    if (!annot.isDictionary()) continue;
    if (carriesFile(annot)) {
      // Its popup still points at it (Parent), so emptying it is what removes the file.
      for (const key of FILE_KEYS) annot.delete(key);
      annots.delete(i);
    } else if (nameOf(annot.get('Subtype')) === 'Popup' && carriesFile(annot.get('Parent'))) {
      annots.delete(i);
    } else dropActions(annot);
  }
}

/** The form's fields, parents included (a parent field can hold actions too). */
function cleanFields(fields: mupdf.PDFObject, seen: Set<number>): void {
  if (!fields.isArray()) return;
  for (let i = 0; i < fields.length; i += 1) {
    const entry = fields.get(i);
    // A Kids array may point back up the tree: each object is visited once.
    if (entry.isIndirect()) {
      if (seen.has(entry.asIndirect())) continue;
      seen.add(entry.asIndirect());
    }
    if (!entry.isDictionary()) continue;
    dropActions(entry);
    cleanFields(entry.get('Kids'), seen);
  }
}

/** Removes embedded files, document JavaScript and automatic actions from the open PDF. */
export function dropActiveContent(pdf: mupdf.PDFDocument): void {
  const root = pdf.getTrailer().get('Root');
  if (root.isDictionary()) {
    const names = root.get('Names');
    if (names.isDictionary()) {
      names.delete('EmbeddedFiles');
      names.delete('JavaScript');
    }
    root.delete('OpenAction');
    root.delete('AA');
    const form = root.get('AcroForm');
    if (form.isDictionary()) {
      form.delete('XFA'); // XFA forms carry their own scripts
      cleanFields(form.get('Fields'), new Set());
    }
  }
  for (let i = 0; i < pdf.countPages(); i += 1) {
    const page = pdf.findPage(i);
    page.delete('AA');
    cleanAnnotations(page);
  }
}

/** The PDF as returned to a client: active content dropped, then written whole. */
export function savePdfOutput(pdf: mupdf.PDFDocument): Buffer {
  dropActiveContent(pdf);
  const buffer = pdf.saveToBuffer('garbage=4,compress=yes,clean=yes,sanitize=yes');
  try {
    return Buffer.from(buffer.asUint8Array());
  } finally {
    buffer.destroy();
  }
}
