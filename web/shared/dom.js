// A tiny element builder: text is always set as text (never parsed as HTML), so nothing a guest
// or the API returns can inject markup.

/** h('p', { class: 'x', onclick: fn }, 'text', child, …) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name === 'class') el.className = value;
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, ...children);
  return el;
}

/**
 * Appends children to `el`, leaving out `null`, `undefined` and `false` (a part of a screen that is
 * not there): the DOM's own `append` and `replaceChildren` would write them as the words "null" …
 */
export function append(el, ...children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** `el.replaceChildren(…)` leaving out absent children, as `append` does. */
export function replaceContent(el, ...children) {
  el.replaceChildren();
  return append(el, ...children);
}

let uid = 0;
/** A fresh id for label/field pairs. */
export function newId(prefix = 'f') {
  uid += 1;
  return `${prefix}-${uid}`;
}

/**
 * A labelled field. `path` is the JSON pointer the API uses for it in `errors[].path`, so a
 * problem can be shown next to it.
 */
export function field(label, input, { path, hint } = {}) {
  const id = input.id || newId();
  input.id = id;
  if (path) input.dataset.path = path;
  const hintEl = hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null;
  if (hintEl) input.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, label), hintEl, input);
}

/** Values of the named controls inside `root`, to restore them after a re-render. */
export function snapshot(root) {
  const values = {};
  for (const el of root.querySelectorAll('input[name], select[name], textarea[name]')) {
    if (el.type === 'file') continue;
    values[el.name] = el.type === 'checkbox' || el.type === 'radio' ? el.checked : el.value;
  }
  return values;
}

export function restore(root, values) {
  for (const el of root.querySelectorAll('input[name], select[name], textarea[name]')) {
    if (!(el.name in values) || el.type === 'file') continue;
    if (el.type === 'checkbox' || el.type === 'radio') el.checked = values[el.name];
    else el.value = values[el.name];
  }
}
