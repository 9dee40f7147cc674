/**
 * The text a PDF page carries outside its content stream: annotation contents (a FreeText
 * note, a sticky note, a comment) and the values of text form fields. Identifiers hide there
 * too, so the global endpoints read and rewrite it.
 */
import type { mupdf } from './mupdf.js';

/** How the text of one kind of annotation is read and written. */
interface TextAccess<T extends mupdf.PDFAnnotation> {
  read(item: T): string;
  write(item: T, text: string): void;
}

const NOTE_CONTENTS: TextAccess<mupdf.PDFAnnotation> = {
  read: (note) => note.getContents(),
  write: (note, text) => {
    note.setContents(text);
  },
};

const FIELD_VALUE: TextAccess<mupdf.PDFWidget> = {
  read: (field) => field.getValue(),
  write: (field, text) => {
    field.setTextValue(text);
  },
};

/** The page's annotations other than form fields (notes, comments). */
function notes(page: mupdf.PDFPage): mupdf.PDFAnnotation[] {
  return page.getAnnotations().filter((a) => a.getType() !== 'Widget');
}

function textFields(page: mupdf.PDFPage): mupdf.PDFWidget[] {
  return page.getWidgets().filter((w) => w.getFieldType() === 'text');
}

/** Every annotation's contents and every text field's value on the page, non-empty ones. */
export function annotationTexts(pdf: mupdf.PDFDocument, index: number): string[] {
  const page = pdf.loadPage(index);
  try {
    const texts = notes(page).map((a) => NOTE_CONTENTS.read(a));
    texts.push(...textFields(page).map((w) => FIELD_VALUE.read(w)));
    return texts.filter((t) => t.trim() !== '');
  } finally {
    page.destroy();
  }
}

/**
 * Rewrites each annotation's contents and each text field's value with `rewrite` (which gets
 * the text and returns it, changed or not), regenerating their appearance; returns how many
 * were changed.
 */
export function rewriteAnnotationTexts(
  pdf: mupdf.PDFDocument,
  index: number,
  rewrite: (text: string) => string,
): number {
  const page = pdf.loadPage(index);
  try {
    const changedNotes = rewriteEach(notes(page), NOTE_CONTENTS, rewrite);
    const changedFields = rewriteEach(textFields(page), FIELD_VALUE, rewrite);
    return changedNotes + changedFields;
  } finally {
    page.destroy();
  }
}

/**
 * Rewrites the text of each item, regenerating the appearance of those changed; how many were.
 * Each is read just before it is written: the widgets of one field may share its value.
 */
function rewriteEach<T extends mupdf.PDFAnnotation>(
  items: readonly T[],
  access: TextAccess<T>,
  rewrite: (text: string) => string,
): number {
  let changed = 0;
  for (const item of items) {
    const text = access.read(item);
    const next = rewrite(text);
    if (next === text) continue;
    access.write(item, next);
    item.update();
    changed += 1;
  }
  return changed;
}
