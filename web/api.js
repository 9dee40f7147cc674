/**
 * The API key and the calls to the API. The key lives in sessionStorage only: this tab keeps
 * it until the tab is closed or the key is forgotten; it is never written to localStorage or
 * a cookie, and is sent only to this origin, in the X-API-Key header.
 */

import { h } from './dom.js';

const KEY_ITEM = 'parda.apiKey';

export function getKey() {
  try {
    return sessionStorage.getItem(KEY_ITEM) ?? '';
  } catch {
    return '';
  }
}

export function setKey(key) {
  const trimmed = key.trim();
  if (trimmed === '') forgetKey();
  else sessionStorage.setItem(KEY_ITEM, trimmed);
}

export function forgetKey() {
  sessionStorage.removeItem(KEY_ITEM);
}

/** A refusal or failure, with the API's `error` code and `message` when it sent them. */
export class ApiFailure extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.name = 'ApiFailure';
    this.status = status;
    this.code = code;
  }
}

/** Any error as an ApiFailure: the API's own, or one of this page (`client_error`). */
export function asFailure(error) {
  return error instanceof ApiFailure ? error : new ApiFailure(0, 'client_error', String(error));
}

/** A failure as a paragraph: its code, then its message. */
export function failureLine(failure) {
  return h(
    'p',
    { class: 'error' },
    h('strong', { class: 'error-code' }, failure.code),
    ': ',
    h('span', { class: 'error-message' }, failure.message),
  );
}

/** The failure a response body stands for: the API's JSON `{error, message}`, or its status. */
export function failureOf(status, text) {
  try {
    const body = JSON.parse(text);
    if (body && typeof body.error === 'string') {
      return new ApiFailure(status, body.error, String(body.message ?? ''));
    }
  } catch {
    // Not JSON: a proxy's page, or no body at all.
  }
  return new ApiFailure(status, `http_${status}`, `The service answered with status ${status}.`);
}

function headersWithKey(extra = {}) {
  const key = getKey();
  return key === '' ? { ...extra } : { ...extra, 'X-API-Key': key };
}

/**
 * A JSON call: the parsed body and the response (for its headers); an ApiFailure when the
 * status is not 2xx.
 * @param {string} path
 * @param {{ method?: string, body?: unknown }} [options]
 */
export async function callJson(path, options = {}) {
  const init = {
    method: options.method ?? 'GET',
    headers: headersWithKey(
      options.body === undefined ? {} : { 'Content-Type': 'application/json' },
    ),
    cache: 'no-store',
  };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiFailure(0, 'network_error', 'The service could not be reached.');
  }
  const text = await response.text();
  if (!response.ok) throw failureOf(response.status, text);
  return { body: JSON.parse(text), response };
}

/**
 * A multipart upload with upload progress (which fetch does not report): resolves with the
 * status, a header reader and the body as a Blob, whatever the status.
 * @param {string} path
 * @param {FormData} form
 * @param {(share: number) => void} onProgress share of the body sent, 0 to 1
 * @returns {Promise<{ status: number, header: (name: string) => string | null, blob: Blob }>}
 */
export function upload(path, form, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    for (const [name, value] of Object.entries(headersWithKey())) {
      xhr.setRequestHeader(name, value);
    }
    xhr.responseType = 'blob';
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.upload.addEventListener('load', () => {
      onProgress(1);
    });
    xhr.addEventListener('load', () => {
      resolve({
        status: xhr.status,
        header: (name) => xhr.getResponseHeader(name),
        blob: xhr.response instanceof Blob ? xhr.response : new Blob([]),
      });
    });
    xhr.addEventListener('error', () => {
      reject(new ApiFailure(0, 'network_error', 'The service could not be reached.'));
    });
    xhr.send(form);
  });
}

/** The file name of a Content-Disposition header (its UTF-8 form first), or null. */
export function dispositionName(header) {
  if (!header) return null;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // Fall back to the ASCII name.
    }
  }
  const plain = /filename="([^"]*)"/i.exec(header);
  return plain?.[1] ?? null;
}
