import { h } from './dom.js';
import { has, t } from './i18n.js';

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

/** The sentence to show for a problem: its `detail`, or a catalogue text when it has none. */
export function problemText(problem) {
  if (problem.detail) return problem.detail;
  const key = `problem.${problem.code}`;
  return has(key) ? t(key) : t('problem.unexpected');
}

/**
 * Shows a problem: its `detail` in an alert at the top of `root`, and each `errors[]` entry's
 * message next to the field whose `data-path` is the entry's JSON pointer; focus goes to the
 * first such field (or to the alert).
 */
export function showProblem(root, problem, { before } = {}) {
  clearProblem(root);
  const alert = h('div', { class: 'form-alert', role: 'alert', tabindex: '-1' }, problemText(problem));
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
      anchor.insertAdjacentElement('afterend', h('p', { class: 'field-error', id }, entry.message));
    }
    target.setAttribute('aria-invalid', 'true');
    target.setAttribute('aria-describedby', `${target.getAttribute('aria-describedby') ?? ''} ${id}`.trim());
    first ??= target;
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
