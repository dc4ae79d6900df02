// The audit trail at the desk (API.md 12), for callers with audit:read: who changed what, newest
// first, filtered by hotel, actor, action and dates, with "more" for the next page.
import { field, h } from '../shared/dom.js';
import { busy, problemMessage, showProblem } from '../shared/forms.js';
import { has, instant, t } from '../shared/i18n.js';
import { show } from '../shared/layout.js';
import { operator } from './desk-api.js';

/** Every action the service writes (docs/api.md 11.5), for the filter; an unknown one shows as is. */
const ACTIONS = [
  'reservation.created',
  'reservation.modified',
  'reservation.cancelled',
  'reservation.arrived',
  'reservation.departed',
  'reservation.no_show',
  'calendar.updated',
  'rate_plans.updated',
  'promotion.saved',
  'promotion.deleted',
  'guest_register.read',
  'guest_identity.purged',
  'message.resent',
  'folio.charge_added',
  'folio.charge_voided',
  'folio.payment_recorded',
  'folio.card_charged',
  'invoice.issued',
  'invoice.credit_note_issued',
  'staff.invited',
  'staff.modified',
  'staff.invitation_accepted',
  'staff.signed_in',
  'staff.signed_out',
  'staff.password_changed',
  'staff.password_reset_requested',
  'staff.password_reset',
  'staff.passkey_added',
  'staff.passkey_removed',
  'key.created',
  'key.revoked',
  'signing_key.rotated',
  'webhook.created',
  'webhook.deleted',
  'ical_feed.created',
  'ical_feed.deleted',
  'ical_import.created',
  'ical_import.deleted',
  'ical_import.synced',
];

const audit = {
  filters: { hotelId: '', actorId: '', action: '', from: '', to: '' },
  entries: null,
  nextCursor: null,
  problem: null,
};

/** Forgets what was read (another key or person signed in). */
export function resetAudit() {
  Object.assign(audit, { entries: null, nextCursor: null, problem: null });
  audit.filters = { hotelId: '', actorId: '', action: '', from: '', to: '' };
}

/** Draws the audit screen inside the desk's frame, reading the first page when none is read. */
export async function renderAudit(ctx) {
  if (audit.entries === null && !audit.problem) await search(ctx);
  const form = filtersForm(ctx);
  const results =
    audit.entries === null
      ? null
      : h(
          'section',
          { 'aria-labelledby': 'audit-results-heading' },
          h(
            'h2',
            { id: 'audit-results-heading', tabindex: '-1', 'aria-live': 'polite' },
            t('audit.results', { count: audit.entries.length }),
          ),
          audit.entries.length === 0
            ? h('p', { class: 'muted' }, t('audit.none'))
            : h(
                'ul',
                { class: 'desk-list audit-list' },
                audit.entries.map((e) => h('li', { 'data-audit': e.id }, entryCard(ctx, e))),
              ),
          audit.nextCursor
            ? h(
                'button',
                { type: 'button', class: 'secondary', onclick: (event) => more(ctx, event.target) },
                t('audit.more'),
              )
            : null,
        );
  show(...ctx.frame(h('h1', {}, t('audit.heading')), form, results));
  if (audit.problem) {
    if (audit.problem.code === 'validation_error') showProblem(form, audit.problem);
    else form.after(h('div', { class: 'form-alert', role: 'alert' }, problemMessage(audit.problem)));
  }
}

const actionName = (action) => (has(`audit.action.${action}`) ? t(`audit.action.${action}`) : action);

function filtersForm(ctx) {
  const f = audit.filters;
  const hotel = h(
    'select',
    { name: 'hotelId' },
    h('option', { value: '' }, t('audit.anyHotel')),
    ctx.hotels.map((x) => h('option', { value: x.id, selected: x.id === f.hotelId }, x.name)),
  );
  const action = h(
    'select',
    { name: 'action' },
    h('option', { value: '' }, t('audit.anyAction')),
    ACTIONS.map((a) => h('option', { value: a, selected: a === f.action }, actionName(a))),
  );
  const actor = h('input', {
    type: 'text',
    name: 'actorId',
    value: f.actorId,
    maxlength: 200,
    autocomplete: 'off',
  });
  const from = h('input', { type: 'date', name: 'from', value: f.from });
  const to = h('input', { type: 'date', name: 'to', value: f.to });
  const form = h(
    'form',
    {
      class: 'card stack',
      role: 'search',
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        audit.filters = {
          hotelId: hotel.value,
          actorId: actor.value.trim(),
          action: action.value,
          from: from.value,
          to: to.value,
        };
        await busy(form, () => search(ctx));
        await renderAudit(ctx);
        document.getElementById('audit-results-heading')?.focus();
      },
    },
    h(
      'div',
      { class: 'row' },
      field(t('audit.hotel'), hotel, { path: '/query/hotelId' }),
      field(t('audit.action'), action, { path: '/query/action' }),
      field(t('audit.actor'), actor, { path: '/query/actorId', hint: t('audit.actorHint') }),
    ),
    h(
      'div',
      { class: 'row' },
      field(t('audit.from'), from, { path: '/query/from' }),
      field(t('audit.to'), to, { path: '/query/to' }),
    ),
    h('button', { type: 'submit', class: 'primary' }, t('audit.submit')),
  );
  return form;
}

function query(extra) {
  const q = {};
  for (const [name, value] of Object.entries(audit.filters)) if (value) q[name] = value;
  return new URLSearchParams({ limit: '50', ...q, ...extra });
}

async function search(ctx) {
  try {
    const { body } = await operator('GET', `/audit-log?${query({})}`);
    Object.assign(audit, { entries: body.data, nextCursor: body.nextCursor, problem: null });
  } catch (problem) {
    if (ctx.signedOut(problem)) return;
    Object.assign(audit, { entries: null, nextCursor: null, problem });
  }
}

async function more(ctx, button) {
  button.disabled = true;
  try {
    const { body } = await operator(
      'GET',
      `/audit-log?${new URLSearchParams({ limit: '50', cursor: audit.nextCursor })}`,
    );
    audit.entries = [...audit.entries, ...body.data];
    audit.nextCursor = body.nextCursor;
  } catch (problem) {
    if (ctx.signedOut(problem)) return;
    audit.problem = problem;
  }
  await renderAudit(ctx);
}

const shown = (value) =>
  value === null || value === undefined
    ? '—'
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

function entryCard(ctx, e) {
  const zone = ctx.hotels.find((x) => x.id === e.hotelId)?.timezone;
  const changes = Object.entries(e.changes ?? {});
  return h(
    'div',
    { class: 'card stack' },
    h(
      'p',
      {},
      h('strong', {}, actionName(e.action)),
      ' · ',
      h('span', {}, `${e.target.type} ${e.target.id}`),
    ),
    h(
      'p',
      { class: 'muted' },
      [
        instant(e.at, zone),
        `${e.actor.name} (${t(`audit.actorType.${e.actor.type}`)}: ${e.actor.id})`,
        e.hotelId ?? t('audit.severalHotels'),
      ].join(' · '),
    ),
    changes.length > 0
      ? h(
          'dl',
          { class: 'audit-changes' },
          changes.map(([name, [before, after]]) => [
            h('dt', {}, name),
            h('dd', {}, `${shown(before)} → ${shown(after)}`),
          ]),
        )
      : null,
  );
}
