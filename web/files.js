/**
 * The file tool: files dropped or chosen, sent one by one to the chosen endpoint with their
 * own progress and status, each result shown beside its original, downloadable alone or with
 * the others in one ZIP built here (see docs/web.md: why not the bulk endpoints).
 */
import { asFailure, dispositionName, failureLine, failureOf, getKey, upload } from './api.js';
import {
  CheckGroup,
  countryGroup,
  globalTypeGroup,
  listingFailed,
  loadListings,
} from './choices.js';
import { append, byId, formatBytes, h, replace } from './dom.js';
import { Pane } from './preview.js';
import { zip } from './zip.js';

/**
 * Each operation: the endpoint, whether it answers a file or JSON, the response headers that
 * report its result, and what it does in a sentence.
 */
export const OPERATIONS = {
  'mask-aadhaar': {
    path: '/api/v1/mask-aadhaar',
    output: 'file',
    headers: ['X-Masked-Count', 'X-Unverified-Count', 'X-Residual-Check'],
    help: 'Covers the first eight digits of each Aadhaar number (the last four stay) and QR codes that hold the number. JPEG, PNG or PDF.',
  },
  'mask-pan': {
    path: '/api/v1/mask-pan',
    output: 'file',
    headers: ['X-Masked-Count', 'X-Residual-Check'],
    help: 'Covers the middle seven characters of each PAN (the first two and the last stay). JPEG, PNG or PDF.',
  },
  'redact-pii': {
    path: '/api/v1/redact-pii',
    output: 'file',
    headers: ['X-Redacted-Count', 'X-Unverified-Count', 'X-Redacted-Types', 'X-Residual-Check'],
    help: 'Covers Indian identifiers whole: Aadhaar, VID, PAN, passport, voter ID and more. A PDF comes back as page images.',
  },
  'global-redact': {
    path: '/api/v1/global/redact',
    output: 'file',
    headers: ['X-Entities-Found', 'X-Entity-Types', 'X-Rasterised-Pages'],
    help: 'Redacts identifiers of many countries (cards, IBANs, tax and national numbers, e-mail, phone). PDF, PNG, JPEG, WEBP, TIFF or BMP.',
  },
  'global-detect': {
    path: '/api/v1/global/detect',
    output: 'json',
    headers: ['X-Entities-Found'],
    help: 'Reports the identifiers found (type, page, a masked preview), changing nothing.',
  },
  'extract-aadhaar': {
    path: '/api/v1/extract-aadhaar',
    output: 'json',
    headers: ['X-Extracted-Fields'],
    help: 'Reads the fields of an Aadhaar card: name, date of birth, gender, address; the number masked unless your key may reveal it.',
  },
  'extract-pan': {
    path: '/api/v1/extract-pan',
    output: 'json',
    headers: ['X-Extracted-Fields'],
    help: 'Reads the fields of a PAN card: PAN, name, father’s name, date of birth.',
  },
  'verify-document': {
    path: '/api/v1/verify-document',
    output: 'json',
    headers: [],
    help: 'Checks an Aadhaar card against the data UIDAI signed into its Secure QR: a verdict, the checks and the signals found.',
  },
};

/** What each reported header is called on the page. */
const HEADER_LABELS = {
  'X-Masked-Count': 'Masked',
  'X-Unverified-Count': 'Covered with a failed check digit',
  'X-Redacted-Count': 'Redacted',
  'X-Redacted-Types': 'By type',
  'X-Entities-Found': 'Values found',
  'X-Entity-Types': 'Types',
  'X-Rasterised-Pages': 'Pages turned into images',
  'X-Extracted-Fields': 'Fields read',
  'X-Residual-Check': 'Residual check',
  'X-Quota-Used': 'Quota used',
  'X-Quota-Remaining': 'Quota left',
  'X-RateLimit-Remaining': 'Requests left this minute',
};
const COMMON_HEADERS = ['X-Quota-Used', 'X-Quota-Remaining', 'X-RateLimit-Remaining'];

/** A header's value for reading: X-Redacted-Types' JSON becomes `aadhaar 1, pan 2`. */
function headerText(name, value) {
  if (name === 'X-Redacted-Types') {
    try {
      const counts = Object.entries(JSON.parse(value));
      return counts.length === 0 ? 'none' : counts.map(([t, n]) => `${t} ${n}`).join(', ');
    } catch {
      return value;
    }
  }
  if (name === 'X-Entity-Types') return value === '' ? 'none' : value.split(',').join(', ');
  return value;
}

/** The headline of a finished file: what was found, in the list of files. */
function summaryOf(result) {
  const value = (name) => result.headers.find(([n]) => n === name)?.[1];
  const count =
    value('X-Masked-Count') ??
    value('X-Redacted-Count') ??
    value('X-Entities-Found') ??
    value('X-Extracted-Fields');
  if (result.operation === 'verify-document') {
    return `Verdict: ${result.json?.verdict ?? 'unknown'}`;
  }
  if (count === undefined) return 'Done';
  if (result.operation.startsWith('mask-')) return `Done: ${count} masked`;
  if (result.operation === 'redact-pii') return `Done: ${count} redacted`;
  if (result.operation.startsWith('extract-')) return `Done: ${count} fields`;
  return `Done: ${count} found`;
}

const baseName = (name) => name.replace(/\.[^.]*$/, '') || 'document';

let nextId = 1;

/** One file of the list, with its row and, once processed, its result. */
class Item {
  constructor(file) {
    this.id = nextId;
    nextId += 1;
    this.file = file;
    this.state = 'waiting';
    /** @type {null | { operation: string, blob: Blob, name: string, headers: [string, string][], json?: unknown, url: string }} */
    this.result = null;
    /** @type {null | ApiFailure} */
    this.error = null;
    this.progress = h('progress', {
      max: '100',
      value: '0',
      'aria-label': `Progress of ${file.name}`,
    });
    this.status = h('span', { class: 'item-status' }, 'Waiting');
    this.select = h(
      'button',
      { type: 'button', class: 'item-name', 'aria-pressed': 'false' },
      file.name,
    );
    this.download = h('a', { class: 'download button small', hidden: true }, 'Download');
    this.remove = h(
      'button',
      { type: 'button', class: 'small remove', 'aria-label': `Remove ${file.name}` },
      'Remove',
    );
    this.row = h(
      'li',
      { class: 'item', 'data-state': 'waiting' },
      h(
        'div',
        { class: 'item-head' },
        this.select,
        h('span', { class: 'item-size' }, formatBytes(file.size)),
      ),
      h('div', { class: 'item-body' }, this.progress, this.status),
      h('div', { class: 'item-actions' }, this.download, this.remove),
    );
  }

  setState(state, text) {
    this.state = state;
    this.row.dataset.state = state;
    this.status.textContent = text;
  }

  setProgress(share) {
    if (share === null) this.progress.removeAttribute('value');
    else this.progress.value = Math.round(share * 100);
  }

  release() {
    if (this.result) URL.revokeObjectURL(this.result.url);
    this.result = null;
  }
}

/** The form parts of the chosen operation, or an error message when a choice is missing. */
function formFields(operation, groups) {
  const fields = [];
  const value = (id) => /** @type {HTMLInputElement} */ (byId(id)).value;
  const checked = (id) => /** @type {HTMLInputElement} */ (byId(id)).checked;
  const list = (group, name, what) => {
    if (!group) return null;
    const chosen = group.selection();
    if (chosen === null) return `Choose at least one ${what}, or press “Defaults”.`;
    if (chosen.length > 0) fields.push([name, chosen.join(',')]);
    return null;
  };
  const countries = () => {
    const chosen = groups.countries?.selection({ emptyMeansAll: true }) ?? [];
    if (chosen.length > 0) fields.push(['countries', chosen.join(',')]);
  };
  let problem = null;
  switch (operation) {
    case 'mask-aadhaar':
    case 'mask-pan':
      fields.push(['output_format', value('mask-output')], ['mask_qr', value('mask-qr')]);
      break;
    case 'redact-pii':
      problem = list(groups.piiTypes, 'types', 'identifier type');
      break;
    case 'global-redact':
      fields.push(['mode', value('global-mode')]);
      if (value('global-mode') === 'mask') fields.push(['mask_keep', value('global-mask-keep')]);
      if (!checked('global-strip')) fields.push(['strip_metadata', 'false']);
      countries();
      problem = list(groups.globalTypes, 'entity_types', 'entity type');
      break;
    case 'global-detect':
      countries();
      problem = list(groups.globalTypes, 'entity_types', 'entity type');
      break;
    case 'extract-aadhaar':
      if (checked('include-confidence')) fields.push(['include_confidence', 'true']);
      if (checked('reveal-number')) fields.push(['reveal_aadhaar_number', 'true']);
      break;
    case 'extract-pan':
      if (checked('include-confidence')) fields.push(['include_confidence', 'true']);
      break;
    default:
      break;
  }
  const password = value('pdf-password');
  if (password !== '') fields.push(['pdf_password', password]);
  return problem ? { problem } : { fields };
}

/** Sends one file and turns the answer into a result or an ApiFailure. */
async function processOne(item, operation, fields, onAnswer) {
  const spec = OPERATIONS[operation];
  const form = new FormData();
  form.append('file', item.file, item.file.name);
  for (const [name, value] of fields) form.append(name, value);
  item.setState('uploading', 'Uploading…');
  item.setProgress(0);
  const answer = await upload(spec.path, form, (share) => {
    item.setProgress(share);
    if (share >= 1) {
      item.setProgress(null);
      item.setState('processing', 'Processing…');
    } else {
      item.status.textContent = `Uploading ${Math.round(share * 100)}%`;
    }
  });
  onAnswer(answer.header('X-Quota-Used'), answer.header('X-Quota-Remaining'));
  if (answer.status < 200 || answer.status >= 300) {
    throw failureOf(answer.status, await answer.blob.text());
  }
  const headers = [...spec.headers, ...COMMON_HEADERS]
    .map((name) => [name, answer.header(name)])
    .filter(([, value]) => value !== null);
  if (spec.output === 'json') {
    const json = JSON.parse(await answer.blob.text());
    const blob = new Blob([JSON.stringify(json, null, 2)], { type: 'application/json' });
    return {
      operation,
      blob,
      json,
      headers,
      name: `${baseName(item.file.name)}_${operation}.json`,
    };
  }
  const type = (answer.header('Content-Type') ?? 'application/octet-stream').split(';')[0];
  const blob = new Blob([answer.blob], { type });
  const name = dispositionName(answer.header('Content-Disposition')) ?? item.file.name;
  return { operation, blob, headers, name };
}

export function setUpFiles({ announce, showQuota }) {
  const operationSelect = /** @type {HTMLSelectElement} */ (byId('operation'));
  const input = /** @type {HTMLInputElement} */ (byId('file-input'));
  const dropzone = byId('dropzone');
  const queue = byId('queue');
  const queueStatus = byId('queue-status');
  const formError = byId('files-error');
  const runButton = /** @type {HTMLButtonElement} */ (byId('run'));
  const clearButton = /** @type {HTMLButtonElement} */ (byId('clear'));
  const allButton = /** @type {HTMLButtonElement} */ (byId('download-all'));
  const resultSection = byId('result');
  const original = new Pane(byId('pane-original-body'), 'Original');
  const processed = new Pane(byId('pane-result-body'), 'Result');
  /** @type {Item[]} */
  let items = [];
  let selected = null;
  let running = false;
  const groups = { piiTypes: null, globalTypes: null, countries: null };

  // The options of the chosen operation only.
  const showOptions = () => {
    const operation = operationSelect.value;
    for (const element of document.querySelectorAll('[data-operations]')) {
      element.hidden = !element.dataset.operations.split(' ').includes(operation);
    }
    byId('operation-help').textContent = OPERATIONS[operation].help;
    byId('mask-keep-field').hidden = byId('global-mode').value !== 'mask';
  };
  operationSelect.addEventListener('change', showOptions);
  byId('global-mode').addEventListener('change', showOptions);
  showOptions();

  loadListings().then(
    ({ indian, global }) => {
      groups.piiTypes = new CheckGroup(
        byId('pii-types'),
        'pii',
        indian.map((t) => ({
          value: t.type,
          label: t.type,
          help: t.description,
          checked: t.enabled_by_default,
        })),
      );
      groups.globalTypes = globalTypeGroup(byId('global-types'), 'global-type', global);
      groups.countries = countryGroup(byId('global-countries'), 'country', global);
    },
    () => {
      for (const id of ['pii-types', 'global-types', 'global-countries']) listingFailed(byId(id));
    },
  );

  const refreshButtons = () => {
    runButton.disabled = running || items.length === 0;
    clearButton.disabled = running || items.length === 0;
    allButton.disabled = running || !items.some((item) => item.result);
  };

  const showError = (message) => {
    replace(formError, message ? h('p', { class: 'error' }, message) : null);
  };

  const select = (item) => {
    selected = item;
    for (const other of items) other.select.setAttribute('aria-pressed', String(other === item));
    if (!item) {
      resultSection.hidden = true;
      original.clear();
      processed.clear();
      return;
    }
    resultSection.hidden = false;
    byId('result-name').textContent = item.file.name;
    const password = /** @type {HTMLInputElement} */ (byId('pdf-password')).value;
    if (original.source !== item.file || original.password !== password) {
      void original.show(item.file, item.file.name, { password });
    }
    const headers = byId('result-headers');
    const error = byId('result-error');
    replace(error);
    replace(headers);
    byId('result-download').hidden = !item.result;
    if (item.error) {
      append(error, failureLine(item.error));
      processed.note('No result: the request failed.');
    } else if (item.result) {
      const result = item.result;
      for (const [name, value] of result.headers) {
        append(
          headers,
          h(
            'div',
            {},
            h('dt', {}, HEADER_LABELS[name] ?? name),
            h('dd', { 'data-header': name.toLowerCase() }, headerText(name, value)),
          ),
        );
      }
      const link = /** @type {HTMLAnchorElement} */ (byId('result-download'));
      link.href = result.url;
      link.download = result.name;
      link.textContent = `Download ${result.name}`;
      void processed.show(result.blob, result.name);
    } else {
      processed.note(item.state === 'waiting' ? 'Not processed yet.' : 'Processing…');
    }
  };

  const addFiles = (files) => {
    for (const file of files) {
      const item = new Item(file);
      item.select.addEventListener('click', () => {
        select(item);
      });
      item.remove.addEventListener('click', () => {
        if (running) return;
        item.release();
        items = items.filter((other) => other !== item);
        item.row.remove();
        if (selected === item) select(null);
        refreshButtons();
        announce(queueStatus, `Removed ${item.file.name}.`);
      });
      items.push(item);
      queue.append(item.row);
    }
    refreshButtons();
    if (files.length > 0) {
      announce(queueStatus, `${items.length} file${items.length === 1 ? '' : 's'} in the list.`);
    }
  };

  byId('choose-files').addEventListener('click', () => {
    input.click();
  });
  input.addEventListener('change', () => {
    addFiles([...(input.files ?? [])]);
    input.value = '';
  });
  dropzone.addEventListener('dragover', (event) => {
    event.preventDefault();
    dropzone.classList.add('dragging');
  });
  dropzone.addEventListener('dragleave', () => {
    dropzone.classList.remove('dragging');
  });
  dropzone.addEventListener('drop', (event) => {
    event.preventDefault();
    dropzone.classList.remove('dragging');
    addFiles([...(event.dataTransfer?.files ?? [])]);
  });

  clearButton.addEventListener('click', () => {
    for (const item of items) item.release();
    items = [];
    queue.replaceChildren();
    select(null);
    refreshButtons();
    announce(queueStatus, 'The list is empty.');
  });

  runButton.addEventListener('click', async () => {
    showError(null);
    if (getKey() === '') {
      showError('Paste your API key first (above).');
      byId('api-key').focus();
      return;
    }
    const operation = operationSelect.value;
    const choice = formFields(operation, groups);
    if (choice.problem) {
      showError(choice.problem);
      return;
    }
    running = true;
    refreshButtons();
    const batch = [...items];
    for (const item of batch) {
      item.release();
      item.error = null;
      item.download.hidden = true;
      item.setState('waiting', 'Waiting');
      item.setProgress(0);
    }
    let failed = 0;
    for (const [index, item] of batch.entries()) {
      announce(queueStatus, `Processing ${index + 1} of ${batch.length}: ${item.file.name}`);
      try {
        const result = await processOne(item, operation, choice.fields, showQuota);
        item.result = { ...result, url: URL.createObjectURL(result.blob) };
        item.setProgress(1);
        item.setState('done', summaryOf(item.result));
        item.download.href = item.result.url;
        item.download.download = item.result.name;
        item.download.setAttribute('aria-label', `Download ${item.result.name}`);
        item.download.hidden = false;
      } catch (error) {
        failed += 1;
        item.error = asFailure(error);
        item.setProgress(0);
        item.setState('error', `Error: ${item.error.code}`);
      }
      if (!selected || selected === item) select(item);
      refreshButtons();
    }
    running = false;
    refreshButtons();
    const done = batch.length - failed;
    announce(
      queueStatus,
      `Finished: ${done} of ${batch.length} processed${failed ? `, ${failed} failed` : ''}.`,
    );
  });

  allButton.addEventListener('click', async () => {
    const entries = [];
    const manifest = [];
    for (const [index, item] of items.entries()) {
      const prefix = String(index + 1).padStart(3, '0');
      const output = item.result ? `${prefix}_${item.result.name}` : null;
      if (item.result) {
        entries.push({ name: output, bytes: new Uint8Array(await item.result.blob.arrayBuffer()) });
      }
      manifest.push({
        index: index + 1,
        filename: item.file.name,
        operation: item.result?.operation ?? null,
        status: item.result ? 'done' : item.error ? 'error' : 'not_processed',
        output,
        headers: Object.fromEntries(item.result?.headers ?? []),
        ...(item.error ? { error: item.error.code, message: item.error.message } : {}),
      });
    }
    const text = JSON.stringify({ files: manifest }, null, 2);
    entries.push({ name: 'manifest.json', bytes: new TextEncoder().encode(text) });
    const url = URL.createObjectURL(zip(entries));
    const link = h('a', { href: url, download: 'parda-results.zip', hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => {
      URL.revokeObjectURL(url);
    }, 60_000);
  });

  refreshButtons();
  return { redraw: () => selected && select(selected) };
}
