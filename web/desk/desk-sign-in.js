// The desk's staff screens before a session (API.md 12): sign in with e-mail and password or a
// passkey, ask for a reset link, accept an invitation (/desk/welcome#<token>) and set a new
// password from a reset link (/desk/reset#<token>). The operator-key form stays beside them.
import { Problem } from '../shared/api.js';
import { field, h } from '../shared/dom.js';
import { busy, showProblem } from '../shared/forms.js';
import { t } from '../shared/i18n.js';
import { show } from '../shared/layout.js';
import { auth, passkeysSupported, signInWithPasskey } from './desk-auth.js';

/** The token of a welcome or reset link: in the fragment, which no server ever sees. */
export function linkToken() {
  return decodeURIComponent(location.hash.slice(1));
}

/** Back to `/desk` without the token in the address bar or history. */
function leaveLink() {
  history.replaceState(null, '', '/desk');
}

const emailInput = () =>
  h('input', { type: 'email', name: 'email', autocomplete: 'username webauthn', required: true });
const newPasswordInput = (name = 'password') =>
  h('input', { type: 'password', name, autocomplete: 'new-password', required: true, minlength: 12 });

/**
 * The sign-in screen: e-mail and password, a passkey, "forgot password", and `keyForm` (the
 * operator key) below. `onSignedIn(me)` continues with the person signed in.
 */
export function renderSignIn({ keyForm, onSignedIn, notice = null, problem = null }) {
  const email = emailInput();
  const password = h('input', {
    type: 'password',
    name: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  const form = h(
    'form',
    {
      class: 'card stack',
      novalidate: true,
      'aria-labelledby': 'staff-sign-in-heading',
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          const me = await busy(form, () =>
            auth('POST', '/sign-in', { email: email.value.trim(), password: password.value }),
          );
          await onSignedIn(me);
        } catch (problem) {
          password.value = '';
          showProblem(form, problem);
        }
      },
    },
    h('h2', { id: 'staff-sign-in-heading' }, t('staff.signIn.heading')),
    field(t('staff.email'), email, { path: '/email' }),
    field(t('staff.password'), password, { path: '/password' }),
    h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'submit', class: 'primary' }, t('staff.signIn.submit')),
      passkeysSupported()
        ? h(
            'button',
            {
              type: 'button',
              class: 'secondary',
              onclick: async () => {
                try {
                  const me = await busy(form, () => signInWithPasskey());
                  await onSignedIn(me);
                } catch (problem) {
                  showProblem(form, problem);
                }
              },
            },
            t('staff.signIn.passkey'),
          )
        : null,
    ),
    h(
      'button',
      { type: 'button', class: 'link', onclick: () => renderForgot({ keyForm, onSignedIn }) },
      t('staff.forgot.open'),
    ),
  );
  show(
    h('h1', {}, t('staff.signIn.title')),
    notice ? h('p', { class: 'notice', role: 'status' }, notice) : null,
    form,
    h('section', { 'aria-labelledby': 'desk-key-heading', class: 'stack' }, keyForm),
  );
  if (problem) showProblem(form, problem);
}

/** "Forgot your password": always the same answer, whoever the e-mail is (API.md 12). */
function renderForgot({ keyForm, onSignedIn }) {
  const email = emailInput();
  email.setAttribute('autocomplete', 'username');
  const back = () => renderSignIn({ keyForm, onSignedIn });
  const form = h(
    'form',
    {
      class: 'card stack',
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await busy(form, () => auth('POST', '/password-reset', { email: email.value.trim() }));
          renderSignIn({ keyForm, onSignedIn, notice: t('staff.forgot.sent') });
        } catch (problem) {
          showProblem(form, problem);
        }
      },
    },
    h('p', {}, t('staff.forgot.intro')),
    field(t('staff.email'), email, { path: '/email' }),
    h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'submit', class: 'primary' }, t('staff.forgot.submit')),
      h('button', { type: 'button', class: 'secondary', onclick: back }, t('staff.back')),
    ),
  );
  show(h('h1', {}, t('staff.forgot.heading')), form);
}

/**
 * A page of a staff link: `/desk/welcome` (accept the invitation: choose a password, signed in)
 * or `/desk/reset` (a new password, then sign in). A weak password is refused by the API with
 * zxcvbn's reason, shown next to the field.
 */
export function renderLinkPage({ kind, keyForm, onSignedIn }) {
  const token = linkToken();
  const password = newPasswordInput();
  const form = h(
    'form',
    {
      class: 'card stack',
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        if (!token) return showProblem(form, new Problem({ detail: t('staff.link.missing') }, 404));
        try {
          if (kind === 'welcome') {
            const me = await busy(form, () =>
              auth('POST', `/invitations/${encodeURIComponent(token)}/accept`, { password: password.value }),
            );
            leaveLink();
            await onSignedIn(me);
          } else {
            await busy(form, () =>
              auth('POST', `/password-reset/${encodeURIComponent(token)}`, { password: password.value }),
            );
            leaveLink();
            renderSignIn({ keyForm, onSignedIn, notice: t('staff.reset.done') });
          }
        } catch (problem) {
          showProblem(
            form,
            problem.status === 404 ? new Problem({ detail: t('staff.link.refused') }, 404) : problem,
          );
        }
      },
    },
    h('p', {}, t(`staff.${kind}.intro`)),
    field(t('staff.newPassword'), password, { path: '/password', hint: t('staff.password.hint') }),
    h('button', { type: 'submit', class: 'primary' }, t(`staff.${kind}.submit`)),
  );
  show(h('h1', {}, t(`staff.${kind}.heading`)), form);
}
