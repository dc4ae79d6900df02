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
 */
export function fieldMessage(entry) {
  const segments = (entry.path ?? '').split('/').filter(Boolean);
  let name = segments.at(-1) ?? '';
  if (/^\d+$/.test(name)) name = `${segments.at(-2) ?? ''}Item`;
  const key = `fieldError.${name}`;
  if (name && has(key)) return t(key);
  return inEnglish(entry.message ?? t('problem.unexpected'), entry.message !== undefined);
}

function inEnglish(text, fromApi) {
  return fromApi && language() !== 'en' ? h('span', { lang: 'en' }, text) : text;
}

/**
 * Shows a problem: its `detail` in an alert at the top of `root`, and each `errors[]` entry's
 * message next to the field whose `data-path` is the entry's JSON pointer; focus goes to the
 * first such field (or to the alert).
 */
export function showProblem(root, problem, { before } = {}) {
  clearProblem(root);
  const alert = h('div', { class: 'form-alert', role: 'alert', tabindex: '-1' }, problemMessage(problem));
  (before ?? root).prepend(alert);
  let first = null;
  for (const entry of problem.errors ?? []) {
    if (!entry.path) continue;
    const target = root.querySelector(`[data-path="${CSS.escape(entry.path)}"]`);
    if (!target) continue;
    const id = `${target.id}-error`;
    if (!document.getElementById(id)) {
      // A checkbox sits inside its label: the message goes after the label, not between the two.
      const anchor = target.closest('label.check') ?? target;
      anchor.insertAdjacentElement('afterend', h('p', { class: 'field-error', id }, fieldMessage(entry)));
    }
    target.setAttribute('aria-invalid', 'true');
    target.setAttribute('aria-describedby', `${target.getAttribute('aria-describedby') ?? ''} ${id}`.trim());
    first ??= target;
  }
  // "See the messages next to the fields", with no field on this page to show one: the API's
  // own words are then the only specifics there are.
  if (
    !first &&
    problem.code === 'validation_error' &&
    problem.detail &&
    problemText(problem) !== problem.detail
  ) {
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
