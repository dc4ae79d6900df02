// "My account" (API.md 12): the signed-in person's passkeys (list, add with a name, remove) and
// password. Only for a session: an operator key has no account.
import { field, h } from '../shared/dom.js';
import { busy, showProblem } from '../shared/forms.js';
import { instant, t } from '../shared/i18n.js';
import { show } from '../shared/layout.js';
import { addPasskey, auth, currentPerson, passkeysSupported } from './desk-auth.js';

/**
 * Draws the account screen inside `frame`. `person` is `GET /auth/me`; `signedOut(problem)`
 * handles an ended session; `notice` is a line to confirm the last change.
 */
export function renderAccount({ frame, person, signedOut, notice = null }) {
  const again = async (message) => {
    try {
      const fresh = await currentPerson();
      if (!fresh) return signedOut({ status: 401 });
      Object.assign(person, fresh);
    } catch {
      // the list is redrawn as it was
    }
    renderAccount({ frame, person, signedOut, notice: message });
  };

  const passkeyList =
    person.passkeys.length === 0
      ? h('p', { class: 'muted' }, t('account.passkeys.none'))
      : h(
          'ul',
          { class: 'desk-list', 'aria-label': t('account.passkeys.heading') },
          person.passkeys.map((p) =>
            h(
              'li',
              { class: 'account-passkey' },
              h('span', { class: 'desk-item-name' }, p.name),
              h(
                'span',
                { class: 'muted' },
                t('account.passkeys.created', { when: instant(p.createdAt) }),
                ' · ',
                p.lastUsedAt
                  ? t('account.passkeys.lastUsed', { when: instant(p.lastUsedAt) })
                  : t('account.passkeys.neverUsed'),
              ),
              h(
                'button',
                {
                  type: 'button',
                  class: 'danger',
                  'aria-label': t('account.passkeys.removeNamed', { name: p.name }),
                  onclick: async (event) => {
                    const button = event.currentTarget;
                    button.disabled = true;
                    try {
                      await auth('DELETE', `/passkeys/${encodeURIComponent(p.id)}`);
                      await again(t('account.passkeys.removed', { name: p.name }));
                    } catch (problem) {
                      button.disabled = false;
                      if (!signedOut(problem)) showProblem(passkeyForm, problem);
                    }
                  },
                },
                t('account.passkeys.remove'),
              ),
            ),
          ),
        );

  const passkeyName = h('input', { type: 'text', name: 'passkeyName', maxlength: 100, autocomplete: 'off' });
  const passkeyForm = h(
    'form',
    {
      class: 'card stack',
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          const added = await busy(passkeyForm, () => addPasskey(passkeyName.value.trim()));
          await again(t('account.passkeys.added', { name: added.name }));
        } catch (problem) {
          if (!signedOut(problem)) showProblem(passkeyForm, problem);
        }
      },
    },
    field(t('account.passkeys.name'), passkeyName, { path: '/name', hint: t('account.passkeys.nameHint') }),
    h('button', { type: 'submit', class: 'primary' }, t('account.passkeys.add')),
  );

  const current = h('input', {
    type: 'password',
    name: 'currentPassword',
    autocomplete: 'current-password',
    required: true,
  });
  const next = h('input', {
    type: 'password',
    name: 'newPassword',
    autocomplete: 'new-password',
    required: true,
  });
  const passwordForm = h(
    'form',
    {
      class: 'card stack',
      novalidate: true,
      'aria-labelledby': 'account-password-heading',
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await busy(passwordForm, () =>
            auth('POST', '/password', { currentPassword: current.value, newPassword: next.value }),
          );
          await again(t('account.password.changed'));
        } catch (problem) {
          if (!signedOut(problem)) showProblem(passwordForm, problem);
        }
      },
    },
    h('h2', { id: 'account-password-heading' }, t('account.password.heading')),
    field(t('account.password.current'), current, { path: '/currentPassword' }),
    field(t('account.password.new'), next, { path: '/newPassword', hint: t('staff.password.hint') }),
    h('button', { type: 'submit', class: 'primary' }, t('account.password.submit')),
  );

  show(
    ...frame(
      h('h1', {}, t('account.heading')),
      notice ? h('p', { class: 'notice', role: 'status' }, notice) : null,
      h(
        'p',
        {},
        t('account.signedInAs', { name: person.user.name, email: person.user.email }),
        ' · ',
        t(`account.role.${person.user.role}`),
      ),
      h(
        'section',
        { 'aria-labelledby': 'account-passkeys-heading', class: 'stack' },
        h('h2', { id: 'account-passkeys-heading' }, t('account.passkeys.heading')),
        passkeyList,
        passkeysSupported() ? passkeyForm : h('p', { class: 'muted' }, t('account.passkeys.unsupported')),
      ),
      passwordForm,
    ),
  );
}
