// A reservation's guest e-mails at the desk (API.md 10): each with its status and attempts, and
// sending the confirmation or the check-in invitation again.
import { h } from '../shared/dom.js';
import { busy, problemMessage, showProblem } from '../shared/forms.js';
import { instant, t } from '../shared/i18n.js';
import { operator } from './desk-api.js';

const RESENDABLE = ['booking_confirmation', 'checkin_invitation'];

/** The messages card: drawn at once, filled when the list arrives (read again after a resend). */
export function messagesSection(detail, ctx) {
  const list = h('div', { class: 'desk-messages', 'aria-live': 'polite' });
  const card = h(
    'section',
    { class: 'card stack', 'aria-labelledby': 'messages-heading' },
    h('h2', { id: 'messages-heading' }, t('desk.messages.heading')),
    list,
    resendForm(detail, ctx, () => load(detail, ctx, list)),
  );
  load(detail, ctx, list);
  return card;
}

async function load(detail, ctx, list) {
  list.replaceChildren(h('p', { class: 'loading' }, t('loading')));
  try {
    const { body } = await operator(
      'GET',
      `/reservations/${encodeURIComponent(detail.reservation.id)}/messages`,
    );
    list.replaceChildren(render(body.data, ctx));
  } catch (problem) {
    if (ctx.signedOut(problem)) return;
    list.replaceChildren(h('div', { class: 'form-alert', role: 'alert' }, problemMessage(problem)));
  }
}

function render(messages, ctx) {
  if (messages.length === 0) return h('p', { class: 'muted' }, t('desk.messages.none'));
  const zone = ctx.hotel?.timezone;
  return h(
    'ul',
    { class: 'desk-message-list' },
    messages.map((m) => {
      const when =
        m.status === 'sent'
          ? t('desk.messages.sentAt', { when: instant(m.sentAt, zone) })
          : m.status === 'queued'
            ? t('desk.messages.dueAt', { when: instant(m.sendAfter, zone) })
            : null;
      return h(
        'li',
        { class: `message-${m.status}`, 'data-kind': m.kind },
        h('span', {}, t(`desk.messages.kind.${m.kind}`)),
        ' ',
        h('span', { class: `badge badge-message-${m.status}` }, t(`desk.messages.status.${m.status}`)),
        h(
          'div',
          { class: 'muted' },
          [m.to, m.language.toUpperCase(), when, t('desk.messages.attempts', { count: m.attempts })]
            .filter(Boolean)
            .join(' · '),
        ),
        m.lastError && m.status !== 'sent' ? h('div', { class: 'muted' }, m.lastError) : null,
      );
    }),
  );
}

function resendForm(detail, ctx, reload) {
  if (detail.reservation.status !== 'confirmed') return null;
  const kind = h(
    'select',
    { name: 'kind', 'data-path': '/kind' },
    RESENDABLE.map((k) => h('option', { value: k }, t(`desk.messages.kind.${k}`))),
  );
  const form = h(
    'form',
    {
      class: 'stack',
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await busy(form, () =>
            operator('POST', `/reservations/${encodeURIComponent(detail.reservation.id)}/messages`, {
              body: { kind: kind.value },
            }),
          );
          form.querySelector('.notice')?.remove();
          form.append(h('p', { class: 'notice', role: 'status' }, t('desk.messages.queued')));
          reload();
        } catch (problem) {
          if (ctx.signedOut(problem)) return;
          showProblem(form, problem);
        }
      },
    },
    h('label', {}, h('span', {}, t('desk.messages.resend')), ' ', kind),
    h('button', { type: 'submit', class: 'secondary' }, t('desk.messages.send')),
  );
  return form;
}
