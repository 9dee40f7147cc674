/**
 * The web tool's entry point: the key field, the three views (#files, #text, #usage) and the
 * live regions that announce what happens.
 */
import { callJson, forgetKey, getKey, setKey } from './api.js';
import { byId } from './dom.js';
import { setUpFiles } from './files.js';
import { setUpText } from './text.js';
import { setUpUsage } from './usage.js';

/**
 * Says something in a live region. Cleared first, so that the same words said twice are
 * announced twice.
 */
function announce(region, text) {
  region.textContent = '';
  if (text) {
    window.setTimeout(() => {
      region.textContent = text;
    }, 20);
  }
}

const VIEWS = ['files', 'text', 'usage'];

/** The quota as the last answer reported it (X-Quota-Used, X-Quota-Remaining). */
function showQuota(used, remaining) {
  if (used === null || remaining === null) return;
  byId('key-quota').textContent = `This month: ${used} documents used, ${remaining} left.`;
}

function setUpKey() {
  const input = /** @type {HTMLInputElement} */ (byId('api-key'));
  const status = byId('key-status');
  const show = byId('key-show');
  input.value = getKey();

  const describe = async () => {
    byId('key-quota').textContent = '';
    if (getKey() === '') {
      announce(status, 'No key: paste one to use the tool.');
      return;
    }
    try {
      const { body } = await callJson('/api/v1/account');
      announce(status, `Key of ${body.organisation} (…${body.key.last4}) accepted.`);
      showQuota(body.quota.used, body.quota.remaining);
    } catch (failure) {
      announce(status, `This key is refused: ${failure.code}: ${failure.message}`);
    }
  };

  input.addEventListener('input', () => {
    setKey(input.value);
  });
  input.addEventListener('change', () => void describe());
  show.addEventListener('click', () => {
    const visible = input.type === 'text';
    input.type = visible ? 'password' : 'text';
    show.setAttribute('aria-pressed', String(!visible));
    show.textContent = visible ? 'Show' : 'Hide';
  });
  byId('key-forget').addEventListener('click', () => {
    forgetKey();
    byId('key-quota').textContent = '';
    input.value = '';
    input.type = 'password';
    show.setAttribute('aria-pressed', 'false');
    show.textContent = 'Show';
    announce(status, 'The key was forgotten by this tab.');
    input.focus();
  });
  byId('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    setKey(input.value);
    void describe();
  });
  if (getKey() !== '') void describe();
}

function setUpViews(onShow) {
  const show = () => {
    const wanted = window.location.hash.replace(/^#/, '');
    const view = VIEWS.includes(wanted) ? wanted : 'files';
    for (const name of VIEWS) {
      byId(`view-${name}`).hidden = name !== view;
      const link = document.querySelector(`nav a[href="#${name}"]`);
      if (name === view) link?.setAttribute('aria-current', 'page');
      else link?.removeAttribute('aria-current');
    }
    document.title = `${view[0].toUpperCase()}${view.slice(1)} · Parda`;
    onShow(view);
  };
  window.addEventListener('hashchange', () => {
    show();
    byId(`view-${VIEWS.find((v) => !byId(`view-${v}`).hidden) ?? 'files'}-heading`).focus();
  });
  show();
}

setUpKey();
setUpFiles({ announce, showQuota });
setUpText({ announce, showQuota });
const usage = setUpUsage({ announce, showQuota });
setUpViews((view) => {
  if (view === 'usage') void usage.load();
});
