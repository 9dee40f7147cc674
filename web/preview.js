/**
 * Previews of a document or a result in one pane: an image shown as it is, a PDF drawn page by
 * page with pdf.js (served by this service from its own copy, under /web/vendor/), a JSON
 * result laid out as lists and tables.
 */
import { append, h, replace } from './dom.js';

const PDFJS = '/web/vendor/pdf.min.mjs';
let pdfjsLoading = null;

/** pdf.js, loaded on the first PDF. */
function pdfjs() {
  pdfjsLoading ??= import(PDFJS).then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = '/web/vendor/pdf.worker.min.mjs';
    return lib;
  });
  return pdfjsLoading;
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/bmp', 'image/gif'];

/** What a file is, from its type or, failing that, its first bytes. */
export async function kindOf(blob) {
  const type = (blob.type || '').split(';')[0].trim().toLowerCase();
  if (type === 'application/pdf') return 'pdf';
  if (type === 'application/json') return 'json';
  if (IMAGE_TYPES.includes(type)) return 'image';
  const head = new Uint8Array(await blob.slice(0, 8).arrayBuffer());
  const starts = (...bytes) => bytes.every((b, i) => head[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46)) return 'pdf';
  if (starts(0x89, 0x50, 0x4e, 0x47) || starts(0xff, 0xd8, 0xff) || starts(0x42, 0x4d)) {
    return 'image';
  }
  if (starts(0x52, 0x49, 0x46, 0x46)) return 'image';
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return 'tiff';
  return 'other';
}

/**
 * One pane's preview. `show` replaces what it shows; `clear` releases it (object URLs,
 * pdf.js documents).
 */
export class Pane {
  /** @param {HTMLElement} body @param {string} label "Original" or "Result" */
  constructor(body, label) {
    this.body = body;
    this.label = label;
    this.generation = 0;
    this.url = null;
    this.pdf = null;
    this.renderTask = null;
    /** The Blob shown and the password it was opened with: showing it again is skipped. */
    this.source = null;
    this.password = '';
  }

  clear() {
    this.generation += 1;
    this.source = null;
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = null;
    this.renderTask?.cancel();
    this.renderTask = null;
    void this.pdf?.destroy();
    this.pdf = null;
    this.body.replaceChildren();
  }

  /** Shows a note instead of a document. */
  note(text) {
    this.clear();
    append(this.body, h('p', { class: 'note' }, text));
  }

  /**
   * @param {Blob} blob
   * @param {string} name
   * @param {{ password?: string }} [options]
   */
  async show(blob, name, options = {}) {
    this.clear();
    this.source = blob;
    this.password = options.password ?? '';
    const generation = this.generation;
    const kind = await kindOf(blob);
    if (generation !== this.generation) return;
    if (kind === 'image') return this.showImage(blob, name);
    if (kind === 'pdf') return this.showPdf(blob, name, options.password);
    if (kind === 'json') return this.showJson(JSON.parse(await blob.text()));
    if (kind === 'tiff') {
      append(
        this.body,
        h(
          'p',
          { class: 'note' },
          'This browser cannot show TIFF images; download the file to see it.',
        ),
      );
      return;
    }
    append(this.body, h('p', { class: 'note' }, 'No preview for this kind of file.'));
  }

  showImage(blob, name) {
    this.url = URL.createObjectURL(blob);
    const image = h('img', {
      src: this.url,
      alt: `${this.label}: ${name}`,
      class: 'preview-image',
    });
    image.addEventListener('error', () => {
      replace(
        this.body,
        h(
          'p',
          { class: 'note' },
          'This browser cannot show this image; download the file to see it.',
        ),
      );
    });
    append(this.body, image);
  }

  async showPdf(blob, name, password) {
    const generation = this.generation;
    const status = h('p', { class: 'note' }, 'Opening the PDF…');
    append(this.body, status);
    let doc;
    try {
      const lib = await pdfjs();
      const data = new Uint8Array(await blob.arrayBuffer());
      doc = await lib.getDocument({
        data,
        password: password || undefined,
        isEvalSupported: false,
        standardFontDataUrl: '/web/vendor/standard_fonts/',
      }).promise;
    } catch (error) {
      if (generation === this.generation) {
        status.textContent =
          error?.name === 'PasswordException'
            ? 'This PDF needs its password to be shown; enter it under “PDF password”.'
            : 'This PDF cannot be shown here; download it to see it.';
      }
      return;
    }
    if (generation !== this.generation) {
      void doc.destroy();
      return;
    }
    this.pdf = doc;
    const canvas = h('canvas', { class: 'preview-pdf', role: 'img' });
    const previous = h('button', { type: 'button', class: 'page-previous' }, 'Previous page');
    const next = h('button', { type: 'button', class: 'page-next' }, 'Next page');
    const where = h('span', { class: 'page-number', 'aria-live': 'polite' });
    const nav = h(
      'div',
      { class: 'page-nav', role: 'group', 'aria-label': `${this.label} pages` },
      previous,
      where,
      next,
    );
    replace(this.body, nav, canvas);
    let current = 1;
    const go = async (page) => {
      current = Math.min(Math.max(page, 1), doc.numPages);
      where.textContent = `Page ${current} of ${doc.numPages}`;
      previous.disabled = current <= 1;
      next.disabled = current >= doc.numPages;
      canvas.setAttribute(
        'aria-label',
        `${this.label}: ${name}, page ${current} of ${doc.numPages}`,
      );
      await this.drawPage(doc, current, canvas, generation);
    };
    previous.addEventListener('click', () => void go(current - 1));
    next.addEventListener('click', () => void go(current + 1));
    nav.hidden = doc.numPages < 2;
    await go(1);
  }

  async drawPage(doc, number, canvas, generation) {
    this.renderTask?.cancel();
    const page = await doc.getPage(number);
    if (generation !== this.generation) return;
    const unscaled = page.getViewport({ scale: 1 });
    const width = Math.max(this.body.clientWidth, 280);
    const ratio = window.devicePixelRatio || 1;
    const viewport = page.getViewport({ scale: Math.min((width / unscaled.width) * ratio, 4) });
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    canvas.dataset.page = String(number);
    const task = page.render({ canvasContext: canvas.getContext('2d'), viewport });
    this.renderTask = task;
    try {
      await task.promise;
      canvas.dataset.rendered = String(number);
    } catch (error) {
      if (error?.name !== 'RenderingCancelledException') throw error;
    } finally {
      if (this.renderTask === task) this.renderTask = null;
    }
  }

  showJson(value) {
    append(this.body, renderJson(value), rawJson(value));
  }
}

/** The raw JSON, folded away. */
function rawJson(value) {
  return h(
    'details',
    { class: 'raw-json' },
    h('summary', {}, 'Raw JSON'),
    h('pre', {}, JSON.stringify(value, null, 2)),
  );
}

const words = (key) => key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

function scalar(value) {
  if (value === null || value === undefined) return h('span', { class: 'null' }, '—');
  if (typeof value === 'boolean')
    return h('span', { class: `bool bool-${value}` }, value ? 'yes' : 'no');
  return String(value);
}

const isPlainObject = (value) =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An array of objects as a table: one row each, one column per key seen. */
function table(rows) {
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          keys.map((key) => h('th', { scope: 'col' }, words(key))),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((row) =>
          h(
            'tr',
            {},
            keys.map((key) =>
              h(
                'td',
                {},
                isPlainObject(row[key]) || Array.isArray(row[key])
                  ? renderJson(row[key])
                  : scalar(row[key]),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/** A JSON value laid out for reading: objects as definition lists, lists of records as tables. */
export function renderJson(value) {
  if (Array.isArray(value)) {
    if (value.length === 0) return h('span', { class: 'null' }, 'none');
    if (value.every(isPlainObject)) return table(value);
    return h(
      'ul',
      { class: 'json-list' },
      value.map((item) => h('li', {}, isPlainObject(item) ? renderJson(item) : scalar(item))),
    );
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return h('span', { class: 'null' }, 'none');
    return h(
      'dl',
      { class: 'json' },
      entries.map(([key, item]) => {
        // A table or a nested list takes the whole width, under its name.
        const block = Array.isArray(item) ? item.some(isPlainObject) : isPlainObject(item);
        return h(
          'div',
          { class: block ? 'json-entry json-block' : 'json-entry' },
          h('dt', {}, words(key)),
          h(
            'dd',
            { 'data-key': key },
            isPlainObject(item) || Array.isArray(item) ? renderJson(item) : scalar(item),
          ),
        );
      }),
    );
  }
  return h('span', {}, scalar(value));
}
