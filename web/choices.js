/**
 * The choices the service lists (GET /api/v1/pii-types, GET /api/v1/global/entity-types) as
 * groups of checkboxes: identifier types with their defaults, and countries.
 */
import { callJson } from './api.js';
import { append, h, replace } from './dom.js';

let listings = null;

/** The two listings, fetched once. */
export function loadListings() {
  listings ??= Promise.all([
    callJson('/api/v1/pii-types'),
    callJson('/api/v1/global/entity-types'),
  ]).then(([indian, global]) => ({
    indian: indian.body.types,
    global: global.body.entity_types,
  }));
  return listings;
}

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();

/** A country code for people: `GB (United Kingdom)`. */
export function countryName(code) {
  if (code === 'EU') return 'European Union';
  if (code === 'ANY') return 'any country';
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * A group of checkboxes with "Defaults", "All" and "None" buttons.
 * `selection()` is the list to send: empty when the defaults are chosen (the service's own
 * defaults then apply), null when nothing at all is chosen (which the caller refuses).
 */
export class CheckGroup {
  /**
   * @param {HTMLElement} container
   * @param {string} idPrefix
   * @param {{ value: string, label: string, help?: string, checked: boolean }[]} items
   * @param {{ defaults?: boolean }} [options]
   */
  constructor(container, idPrefix, items, options = {}) {
    this.items = items;
    this.inputs = items.map((item) =>
      h('input', {
        type: 'checkbox',
        id: `${idPrefix}-${item.value}`,
        value: item.value,
        checked: item.checked,
      }),
    );
    const list = h(
      'ul',
      { class: 'checks' },
      items.map((item, i) =>
        h(
          'li',
          {},
          this.inputs[i],
          h(
            'label',
            { for: `${idPrefix}-${item.value}` },
            h('span', { class: 'check-name' }, item.label),
            item.help ? h('span', { class: 'check-help' }, item.help) : null,
          ),
        ),
      ),
    );
    const buttons = h('div', { class: 'check-buttons' });
    const button = (text, apply) => {
      const b = h('button', { type: 'button', class: 'small' }, text);
      b.addEventListener('click', () => {
        this.inputs.forEach((input, i) => {
          input.checked = apply(this.items[i]);
        });
      });
      return b;
    };
    if (options.defaults !== false) buttons.append(button('Defaults', (item) => item.checked));
    buttons.append(
      button('All', () => true),
      button('None', () => false),
    );
    replace(container, buttons, list);
  }

  /** The chosen values; [] when they are the defaults; null when none is chosen. */
  selection({ emptyMeansAll = false } = {}) {
    const chosen = this.inputs.filter((input) => input.checked).map((input) => input.value);
    if (chosen.length === 0) return emptyMeansAll ? [] : null;
    const defaults = this.items.filter((item) => item.checked).map((item) => item.value);
    const same = chosen.length === defaults.length && chosen.every((v) => defaults.includes(v));
    return same ? [] : chosen;
  }
}

/** Countries of the country-specific global types, as a check group (none chosen: all). */
export function countryGroup(container, idPrefix, globalTypes) {
  const codes = [...new Set(globalTypes.map((t) => t.country).filter((c) => c !== 'ANY'))].sort();
  return new CheckGroup(
    container,
    idPrefix,
    codes.map((code) => ({ value: code, label: `${code} · ${countryName(code)}`, checked: false })),
    { defaults: false },
  );
}

/** The global entity types, as a check group with their defaults. */
export function globalTypeGroup(container, idPrefix, globalTypes) {
  return new CheckGroup(
    container,
    idPrefix,
    globalTypes.map((t) => ({
      value: t.type,
      label: `${t.type} (${t.country === 'ANY' ? 'any country' : t.country})`,
      help: t.description,
      checked: t.enabled_by_default,
    })),
  );
}

/** A note in place of a group whose listing could not be fetched. */
export function listingFailed(container) {
  replace(container);
  append(
    container,
    h('p', { class: 'note' }, 'The list could not be fetched; the service’s defaults apply.'),
  );
}
