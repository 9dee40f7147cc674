/**
 * A few DOM helpers. Every text reaches the page as a text node or an attribute value, never as
 * HTML: file names, messages and findings cannot inject markup.
 */

/**
 * Builds an element: `h('a', { href: '#x', class: 'link' }, 'text', child)`. Attributes whose
 * value is null, undefined or false are left out; true sets an empty attribute.
 * @param {string} tag
 * @param {Record<string, unknown>} [attributes]
 * @param {...(Node | string | number | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  append(element, ...children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** As `h`, for SVG elements. */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  setAttributes(element, attributes);
  append(element, ...children);
  return element;
}

function setAttributes(element, attributes) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
}

/** Appends children, strings as text; null, undefined and false are skipped. */
export function append(parent, ...children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replaces an element's children. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, ...children);
}

/** The element with this id; throws when the page lacks it (a bug, not a user error). */
export function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element;
}

/** A size in bytes for people: 980 B, 12.4 kB, 3.1 MB. */
export function formatBytes(bytes) {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
