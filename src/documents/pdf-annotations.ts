/**
 * The text a PDF page carries outside its content stream: annotation contents (a FreeText
 * note, a sticky note, a comment) and the values of text form fields. Identifiers hide there
 * too, so the global endpoints read and rewrite it.
 */
import type { mupdf } from './mupdf.js';

function textFields(page: mupdf.PDFPage): mupdf.PDFWidget[] {
  return page.getWidgets().filter((w) => w.getFieldType() === 'text');
}

/** Every annotation's contents and every text field's value on the page, non-empty ones. */
export function annotationTexts(pdf: mupdf.PDFDocument, index: number): string[] {
  const page = pdf.loadPage(index);
  try {
    const texts = page
      .getAnnotations()
      .filter((a) => a.getType() !== 'Widget')
      .map((a) => a.getContents());
    texts.push(...textFields(page).map((w) => w.getValue()));
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
  let changed = 0;
  try {
    for (const annotation of page.getAnnotations()) {
      if (annotation.getType() === 'Widget') continue;
      const text = annotation.getContents();
      const next = rewrite(text);
      if (next === text) continue;
      annotation.setContents(next);
      annotation.update();
      changed += 1;
    }
    for (const field of textFields(page)) {
      const text = field.getValue();
      const next = rewrite(text);
      if (next === text) continue;
      field.setTextValue(next);
      field.update();
      changed += 1;
    }
    return changed;
  } finally {
    page.destroy();
  }
}
