/**
 * Text redaction (POST /api/v1/global/redact/text): the redacted text, and the findings marked
 * in the text as it was sent. The report's spans count Unicode code points, so the text is cut
 * by code points too, never by UTF-16 units.
 */
import { asFailure, callJson, failureLine, getKey } from './api.js';
import { countryGroup, globalTypeGroup, listingFailed, loadListings } from './choices.js';
import { append, byId, h, replace } from './dom.js';

/**
 * The text as nodes: plain runs, and each finding in a <mark> labelled with its type.
 * Overlapping spans (none are expected) keep the first.
 */
export function highlighted(text, entities) {
  const points = Array.from(text);
  const nodes = [];
  let at = 0;
  const sorted = [...entities].sort((a, b) => a.start - b.start || b.end - a.end);
  for (const entity of sorted) {
    if (entity.start < at || entity.end <= entity.start) continue;
    if (entity.start > at) nodes.push(points.slice(at, entity.start).join(''));
    nodes.push(
      h(
        'mark',
        { class: 'finding', 'data-type': entity.type, title: entity.type },
        h('span', { class: 'finding-value' }, points.slice(entity.start, entity.end).join('')),
        h('span', { class: 'finding-type' }, entity.type),
      ),
    );
    at = entity.end;
  }
  if (at < points.length) nodes.push(points.slice(at).join(''));
  return nodes;
}

export function setUpText({ announce, showQuota }) {
  const form = byId('text-form');
  const status = byId('text-status');
  const error = byId('text-error');
  const result = byId('text-result');
  const groups = { types: null, countries: null };

  loadListings().then(
    ({ global }) => {
      groups.types = globalTypeGroup(byId('text-types'), 'text-type', global);
      groups.countries = countryGroup(byId('text-countries'), 'text-country', global);
    },
    () => {
      listingFailed(byId('text-types'));
      listingFailed(byId('text-countries'));
    },
  );

  const mode = /** @type {HTMLSelectElement} */ (byId('text-mode'));
  const showKeep = () => {
    byId('text-mask-keep-field').hidden = mode.value !== 'mask';
  };
  mode.addEventListener('change', showKeep);
  showKeep();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    replace(error);
    const text = /** @type {HTMLTextAreaElement} */ (byId('text-input')).value;
    if (getKey() === '') {
      append(error, h('p', { class: 'error' }, 'Paste your API key first (above).'));
      return;
    }
    if (text.trim() === '') {
      append(error, h('p', { class: 'error' }, 'Type or paste some text first.'));
      return;
    }
    const body = { text, mode: mode.value };
    if (mode.value === 'mask') {
      body.mask_keep = Number(/** @type {HTMLInputElement} */ (byId('text-mask-keep')).value);
    }
    const types = groups.types?.selection() ?? [];
    if (types === null) {
      append(
        error,
        h('p', { class: 'error' }, 'Choose at least one entity type, or press “Defaults”.'),
      );
      return;
    }
    if (types.length > 0) body.entity_types = types;
    const countries = groups.countries?.selection({ emptyMeansAll: true }) ?? [];
    if (countries.length > 0) body.countries = countries;

    announce(status, 'Redacting…');
    try {
      const { body: answer, response } = await callJson('/api/v1/global/redact/text', {
        method: 'POST',
        body,
      });
      replace(byId('text-highlighted'), ...highlighted(text, answer.entities));
      byId('text-redacted').textContent = answer.redacted_text;
      const summary = Object.entries(answer.summary);
      replace(
        byId('text-summary'),
        summary.length === 0
          ? h('li', {}, 'Nothing found.')
          : summary.map(([type, count]) =>
              h('li', {}, h('span', { class: 'badge' }, type), ` ${count}`),
            ),
      );
      replace(
        byId('text-rejected'),
        answer.rejected_candidates.length === 0
          ? h('li', {}, 'None.')
          : answer.rejected_candidates.map((r) =>
              h('li', {}, `${r.type} at ${r.start}–${r.end}: ${r.reason}`),
            ),
      );
      const found = response.headers.get('X-Entities-Found') ?? String(answer.entities.length);
      const used = response.headers.get('X-Quota-Used');
      const left = response.headers.get('X-Quota-Remaining');
      showQuota(used, left);
      byId('text-counts').textContent =
        `${found} value${found === '1' ? '' : 's'} replaced (mode ${answer.mode})` +
        (used !== null ? `; quota used ${used}, left ${left}.` : '.');
      result.hidden = false;
      announce(status, `Done: ${found} found.`);
    } catch (failure) {
      const f = asFailure(failure);
      announce(status, 'The text could not be redacted.');
      append(error, failureLine(f));
    }
  });

  byId('text-copy').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(byId('text-redacted').textContent ?? '');
      announce(status, 'The redacted text was copied.');
    } catch {
      announce(status, 'Copying is not allowed here; select the text and copy it.');
    }
  });
}
