import { h } from './dom.js';
import { has, language, t } from './i18n.js';

/** Removes the errors a previous answer left on `root`. */
export function clearProblem(root) {
  for (const el of root.querySelectorAll('.field-error, .form-alert')) el.remove();
  for (const el of root.querySelectorAll('[aria-invalid]')) {
    el.removeAttribute('aria-invalid');
    const described = (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter((id) => !id.endsWith('-error'));
    if (described.length > 0) el.setAttribute('aria-describedby', described.join(' '));
    else el.removeAttribute('aria-describedby');
  }
}

/**
 * The sentence to show for a problem. English pages show the API's own `detail` (a sentence for
 * people, often naming the dates or rooms at stake); other languages show the catalogue's text for
 * the problem `code`, and the API's detail only when the catalogue has none.
 */
export function problemText(problem) {
  const key = `problem.${problem.code}`;
  if (problem.detail && (language() === 'en' || !has(key))) return problem.detail;
  return has(key) ? t(key) : t('problem.unexpected');
}

/**
 * The problem's sentence as a node: a span marked `lang="en"` when it is the API's English on a
 * page in another language, so screen readers pronounce it right.
 */
export function problemMessage(problem) {
  const text = problemText(problem);
  return inEnglish(text, problem.code !== undefined && text === problem.detail);
}

/**
 * What a field expects, from the catalogue (`fieldError.<name>`), for an `errors[]` entry: `name`
 * is the pointer's last segment (`/guest/email` → `email`), or its parent + `Item` for an array
 * element (`/children/0` → `childrenItem`). The API's message is a fragment for developers
 * ("must match format …"), so the catalogue wins in every language; the message is the fallback.
 * A field left empty is asked for (`fieldError.<name>.empty`, else `fieldError.empty`) rather
 * than told what a valid value looks like.
 */
export function fieldMessage(entry, { empty = false } = {}) {
  const segments = (entry.path ?? '').split('/').filter(Boolean);
  let name = segments.at(-1) ?? '';
  if (/^\d+$/.test(name)) name = `${segments.at(-2) ?? ''}Item`;
  const key = `fieldError.${name}`;
  if (empty && name && has(`${key}.empty`)) return t(`${key}.empty`);
  if (empty && has('fieldError.empty')) return t('fieldError.empty');
  if (name && has(key)) return t(key);
  return inEnglish(entry.message ?? t('problem.unexpected'), entry.message !== undefined);
}

/** A text field or date left empty (a half-typed date reads as empty too). */
function isEmptyField(target) {
  if (!(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) return false;
  if (target.type === 'checkbox' || target.type === 'radio' || target.type === 'file') return false;
  return target.value.trim() === '';
}

function inEnglish(text, fromApi) {
  return fromApi && language() !== 'en' ? h('span', { lang: 'en' }, text) : text;
}

/**
 * Shows a problem: an alert at the top of `root`, and for a refused field (`validation_error`)
 * each `errors[]` entry's message next to the field whose `data-path` is the entry's JSON pointer;
 * focus goes to the first such field (or to the alert). When the fields say what is wrong, the
 * alert says so in the page's language, in every language: the API's `detail` then only lists the
 * same faults in developers' words. Other problems (a declined card) mark the field they concern
 * and say why in the alert alone, so the field shows no second, unrelated message.
 */
export function showProblem(root, problem, { before } = {}) {
  clearProblem(root);
  const refused = problem.code === 'validation_error';
  const targets = [];
  for (const entry of problem.errors ?? []) {
    if (!entry.path) continue;
    const target = root.querySelector(`[data-path="${CSS.escape(entry.path)}"]`);
    if (target) targets.push({ entry, target });
  }
  const message =
    refused && targets.length > 0 && has('problem.validation_error')
      ? t('problem.validation_error')
      : problemMessage(problem);
  const alert = h('div', { class: 'form-alert', role: 'alert', tabindex: '-1' }, message);
  (before ?? root).prepend(alert);
  let first = null;
  for (const { entry, target } of targets) {
    const id = `${target.id}-error`;
    if (refused && !document.getElementById(id)) {
      // A checkbox sits inside its label: the message goes after the label, not between the two.
      const anchor = target.closest('label.check') ?? target;
      const text = fieldMessage(entry, { empty: isEmptyField(target) });
      anchor.insertAdjacentElement('afterend', h('p', { class: 'field-error', id }, text));
    }
    target.setAttribute('aria-invalid', 'true');
    if (refused) {
      target.setAttribute(
        'aria-describedby',
        `${target.getAttribute('aria-describedby') ?? ''} ${id}`.trim(),
      );
    }
    first ??= target;
  }
  // "See the messages next to the fields", with no field on this page to show one: the API's
  // own words are then the only specifics there are.
  if (!first && refused && problem.detail && problemText(problem) !== problem.detail) {
    alert.append(' ', h('span', { lang: 'en' }, problem.detail));
  }
  (first ?? alert).focus();
}

/** Disables a form's controls while a request runs, so a double click cannot send twice. */
export async function busy(form, work) {
  const controls = [...form.querySelectorAll('button, input, select, textarea')].filter((el) => !el.disabled);
  form.setAttribute('aria-busy', 'true');
  for (const el of controls) el.disabled = true;
  try {
    return await work();
  } finally {
    for (const el of controls) el.disabled = false;
    form.removeAttribute('aria-busy');
  }
}
