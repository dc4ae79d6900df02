// One reservation at the desk: what was booked, the online check-in's progress, and what the
// desk can do (cancel with or without the fee, arrive, depart).
import { append, field, h } from '../shared/dom.js';
import { busy, problemMessage, showProblem } from '../shared/forms.js';
import { date, instant, money, t } from '../shared/i18n.js';
import { show } from '../shared/layout.js';
import { hotelToday, isMissingEndpoint, operator, ratePlanName, roomTypeName } from './desk-api.js';
import { folioSection } from './desk-folio.js';
import { messagesSection } from './desk-messages.js';

/** A reservation in a list: a button naming the guest, the code, the stay and where it stands. */
export function reservationSummary(r, onOpen) {
  return h(
    'button',
    { type: 'button', class: 'desk-item', onclick: onOpen, 'data-code': r.id },
    h('span', { class: 'desk-item-name' }, `${r.guest.firstName} ${r.guest.lastName}`),
    h('span', { class: 'code-small' }, r.id),
    h(
      'span',
      { class: 'muted' },
      `${t('desk.item.stay', { checkIn: date(r.checkIn), checkOut: date(r.checkOut) })} · ${roomTypeName(r.roomType)}`,
    ),
    h(
      'span',
      { class: 'badges' },
      r.status === 'cancelled' ? badge('cancelled', t('desk.status.cancelled')) : null,
      badge(`checkin-${r.checkin.status}`, t(`desk.checkin.${r.checkin.status}`)),
      r.stay ? badge(`stay-${r.stay.status}`, t(`desk.stay.${r.stay.status}`)) : null,
    ),
  );
}

const badge = (kind, text) => h('span', { class: `badge badge-${kind}` }, text);

/**
 * The detail screen. Reads the reservation with its check-in steps; a server without that endpoint
 * yet (404 "No endpoint") still shows what the list returned, saying the steps are not available.
 */
export async function showReservation(detail, ctx) {
  if (!detail.loaded) {
    show(...ctx.frame(h('p', { class: 'loading' }, t('loading'))));
    try {
      const { body, etag } = await operator(
        'GET',
        `/reservations/${encodeURIComponent(detail.reservation.id)}`,
      );
      Object.assign(detail, { reservation: body, etag, stepsMissing: false, problem: null });
    } catch (problem) {
      if (ctx.signedOut(problem)) return;
      if (isMissingEndpoint(problem)) detail.stepsMissing = true;
      else detail.problem = problem;
    }
    detail.loaded = true;
  }
  draw(detail, ctx);
}

function draw(detail, ctx) {
  const r = detail.reservation;
  const rows = [
    [t('desk.detail.status'), t(`desk.status.${r.status}`)],
    [t('desk.detail.guest'), `${r.guest.firstName} ${r.guest.lastName}`],
    [t('desk.detail.email'), r.guest.email],
    [t('desk.detail.phone'), r.guest.phone],
    [t('desk.detail.dates'), t('desk.item.stay', { checkIn: date(r.checkIn), checkOut: date(r.checkOut) })],
    [t('desk.detail.party'), party(r)],
    [t('desk.detail.room'), roomTypeName(r.roomType)],
    [t('desk.detail.rate'), ratePlanName(r.ratePlan)],
    [t('desk.detail.total'), money(r.total)],
    [t('desk.detail.paid'), money(r.payment.paid)],
    [t('desk.detail.due'), money(r.payment.due)],
    [t('desk.detail.requests'), r.specialRequests],
    [t('desk.detail.notes'), r.internalNotes],
    [t('desk.detail.source'), r.source ? t(`desk.source.${r.source}`) : null],
    [t('desk.detail.stay'), r.stay ? t(`desk.stay.${r.stay.status}`) : null],
    [t('desk.detail.roomNumbers'), r.stay?.roomNumbers?.length ? r.stay.roomNumbers.join(', ') : null],
  ].filter(([, value]) => value !== null && value !== undefined && value !== '');
  const cancellation = r.cancellation
    ? h(
        'p',
        { class: 'notice' },
        t('desk.detail.cancelled', {
          when: instant(r.cancellation.cancelledAt, ctx.hotel?.timezone),
          fee: money(r.cancellation.fee),
          refund: money(r.cancellation.refund),
        }),
      )
    : null;
  const alert = detail.problem
    ? h('div', { class: 'form-alert', role: 'alert' }, problemMessage(detail.problem))
    : null;
  show(
    ...ctx.frame(
      h('button', { type: 'button', class: 'link', onclick: ctx.back }, t('desk.detail.back')),
      h('h1', {}, t('desk.detail.heading', { code: r.id })),
      alert,
      cancellation,
      h(
        'dl',
        { class: 'desk-facts card' },
        rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]),
      ),
      checkinSection(detail, ctx),
      folioSection(detail, ctx),
      messagesSection(detail, ctx),
      actions(detail, ctx),
    ),
  );
}

/** "2 adults, 1 child, 1 room": each part in the language's plural. */
function party(r) {
  return [
    t('desk.detail.adults', { count: r.adults }),
    r.children.length ? t('desk.detail.children', { count: r.children.length }) : null,
    t('desk.detail.rooms', { count: r.rooms }),
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * What the guest gave in a step, as the API shows it to the hotel (masked: the document's last 4
 * characters, no image or signature), in one line; null before the step was submitted.
 */
function stepData(step) {
  const d = step.data;
  if (!d) return null;
  switch (step.name) {
    case 'guest_details':
      return [
        `${d.firstName} ${d.lastName}`,
        d.nationality,
        d.arrivalTime ? t('desk.stepData.arrival', { time: d.arrivalTime }) : null,
      ]
        .filter(Boolean)
        .join(' · ');
    case 'companions':
      return d.guests.map((g) => `${g.firstName} ${g.lastName}`).join(', ');
    case 'identity_document':
      if (d.purged) return t('desk.stepData.purged');
      return t('desk.stepData.document', {
        type: t(`document.${d.type}`),
        last4: d.numberLast4,
        country: d.issuingCountry,
      });
    case 'signature':
      return t('desk.stepData.signedBy', { name: d.signerName });
    case 'payment':
      return [money(d.amount), d.brand && d.last4 ? `${d.brand} ···· ${d.last4}` : null]
        .filter(Boolean)
        .join(' · ');
    default:
      return null;
  }
}

function checkinSection(detail, ctx) {
  const checkin = detail.reservation.checkin;
  const steps = checkin.steps ?? [];
  return h(
    'section',
    { class: 'card stack', 'aria-labelledby': 'checkin-heading' },
    h('h2', { id: 'checkin-heading' }, t('desk.detail.checkin')),
    h('p', {}, badge(`checkin-${checkin.status}`, t(`desk.checkin.${checkin.status}`))),
    checkin.completedAt
      ? h(
          'p',
          { class: 'muted' },
          t('desk.detail.completedAt', { when: instant(checkin.completedAt, ctx.hotel?.timezone) }),
        )
      : null,
    stepsList(detail, steps),
  );
}

/** The session's steps; none exist before the guest opens online check-in (API.md 7.2). */
function stepsList(detail, steps) {
  if (detail.stepsMissing) return h('p', { class: 'muted' }, t('desk.detail.unavailable'));
  if (steps.length === 0) return h('p', { class: 'muted' }, t('desk.detail.noSession'));
  return h(
    'ol',
    { class: 'desk-steps' },
    steps.map((s) => {
      const data = stepData(s);
      return h(
        'li',
        { class: `step-${s.status}` },
        h('span', {}, t(`desk.step.${s.name}`)),
        ' ',
        badge(`step-${s.status}`, t(`desk.stepStatus.${s.status}`)),
        data ? h('div', { class: 'muted' }, data) : null,
      );
    }),
  );
}

/**
 * What the desk may do now, by the API's rules (API.md 7.2, 7.5), so no action is offered that the
 * API would refuse: arrive on an expected stay from its check-in date to the day before check-out
 * (hotel time); depart when in house; a no-show from the day after the check-in date while still
 * expected; cancel while expected (not once the guest has arrived or left).
 */
function actions(detail, ctx) {
  const r = detail.reservation;
  if (r.status !== 'confirmed') return null;
  const stay = r.stay?.status ?? 'expected';
  const today = ctx.hotel ? hotelToday(ctx.hotel.timezone) : null;
  const sections = [];
  if (stay === 'expected' && today !== null && today < r.checkIn) {
    sections.push(h('p', { class: 'muted' }, t('desk.arrive.notYet', { date: date(r.checkIn) })));
  }
  if (stay === 'expected' && today !== null && today >= r.checkIn && today < r.checkOut) {
    const roomsInput = h('input', { type: 'text', name: 'roomNumbers', autocomplete: 'off' });
    const form = h(
      'form',
      {
        class: 'card stack',
        novalidate: true,
        onsubmit: (event) => {
          const roomNumbers = roomsInput.value
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean);
          return act(event, form, detail, ctx, 'arrive', roomNumbers.length ? { roomNumbers } : {});
        },
      },
      h('h2', {}, t('desk.arrive.heading')),
      field(t('desk.arrive.rooms'), roomsInput, { path: '/roomNumbers' }),
      h('button', { type: 'submit', class: 'secondary' }, t('desk.arrive.submit')),
    );
    sections.push(form);
  }
  if (stay === 'in_house') {
    const form = h(
      'form',
      {
        class: 'card stack',
        novalidate: true,
        onsubmit: (event) => act(event, form, detail, ctx, 'depart', {}),
      },
      h('h2', {}, t('desk.depart.heading')),
      h('button', { type: 'submit', class: 'secondary' }, t('desk.depart.submit')),
    );
    sections.push(form);
  }
  if (stay === 'expected' && today !== null && today > r.checkIn)
    sections.push(feeForm(detail, ctx, 'no-show'));
  if (stay === 'expected') sections.push(feeForm(detail, ctx, 'cancel'));
  return sections;
}

/**
 * Cancel, or record a no-show: both end the stay for the fee of the cancellation policy (unless
 * waived), so both first ask for confirmation showing what will be charged and refunded, from the
 * reservation's `cancellationCharge` (what cancelling now costs, as the API computed it on reading).
 */
function feeForm(detail, ctx, action) {
  const key = action === 'cancel' ? 'cancel' : 'noShow';
  const pending = detail.confirming?.action === action ? detail.confirming : null;
  const reason =
    action === 'cancel'
      ? h('input', {
          type: 'text',
          name: 'reason',
          maxlength: 500,
          autocomplete: 'off',
          value: pending?.reason ?? '',
        })
      : null;
  const waive = h('input', {
    type: 'checkbox',
    name: `waiveFee-${action}`,
    'data-path': '/waiveFee',
    checked: pending?.waiveFee ?? false,
  });
  const ask = (event) => {
    event.preventDefault();
    detail.confirming = { action, reason: reason?.value.trim() ?? '', waiveFee: waive.checked };
    draw(detail, ctx);
    document.getElementById(`confirm-${action}`)?.focus();
  };
  const form = h(
    'form',
    {
      class: `card stack desk-${action}`,
      novalidate: true,
      onsubmit: pending ? (e) => e.preventDefault() : ask,
    },
    h('h2', {}, t(`desk.${key}.heading`)),
    reason ? field(t('desk.cancel.reason'), reason, { path: '/reason' }) : null,
    h('label', { class: 'check' }, waive, h('span', {}, t('desk.cancel.waive'))),
    pending ? null : h('button', { type: 'submit', class: 'danger' }, t(`desk.${key}.submit`)),
  );
  if (pending) append(form, confirmation(detail, ctx, action, form, pending));
  return form;
}

/** "Cancelling now charges €120.00 …" with the buttons to go ahead or keep the reservation. */
function confirmation(detail, ctx, action, form, pending) {
  const key = action === 'cancel' ? 'cancel' : 'noShow';
  const charge = detail.reservation.cancellationCharge;
  const paid = detail.reservation.payment.paid;
  let text;
  if (pending.waiveFee) {
    text =
      paid.amount > 0 ? t('desk.confirm.waivedRefund', { refund: money(paid) }) : t('desk.confirm.waived');
  } else if (charge) {
    const free = charge.fee.amount === 0;
    const refunded = charge.refund.amount > 0;
    const kind = free ? (refunded ? 'freeRefund' : 'free') : refunded ? 'feeRefund' : 'fee';
    text = t(`desk.confirm.${kind}`, {
      fee: money(charge.fee),
      refund: money(charge.refund),
      due: money(charge.due),
    });
  } else {
    text = t('desk.confirm.policy');
  }
  const body = {
    ...(pending.reason ? { reason: pending.reason } : {}),
    waiveFee: pending.waiveFee,
  };
  return h(
    'div',
    {
      class: 'confirm stack',
      role: 'group',
      id: `confirm-${action}`,
      tabindex: '-1',
      'aria-labelledby': `confirm-${action}-text`,
    },
    h(
      'p',
      { id: `confirm-${action}-text`, class: 'notice' },
      h('strong', {}, t(`desk.${key}.confirmQuestion`)),
      ' ',
      text,
    ),
    h(
      'div',
      { class: 'buttons' },
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          onclick: (event) => {
            detail.confirming = null;
            return act(event, form, detail, ctx, action, body);
          },
        },
        t(`desk.${key}.confirm`),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => {
            detail.confirming = null;
            draw(detail, ctx);
          },
        },
        t('desk.confirm.keep'),
      ),
    ),
  );
}

async function act(event, form, detail, ctx, action, body) {
  event.preventDefault();
  const r = detail.reservation;
  try {
    const { body: updated, etag } = await busy(form, () =>
      operator('POST', `/reservations/${encodeURIComponent(r.id)}/${action}`, {
        body,
        headers: { 'if-match': detail.etag ?? `"${r.version}"` },
      }),
    );
    // The answer of a change is the reservation without the check-in steps (API.md 7.2): the
    // steps read before are kept (the desk's actions do not change them), with the new status.
    // What cancelling costs was read with the old state: it no longer stands.
    Object.assign(detail, {
      reservation: {
        ...r,
        ...updated,
        checkin: { ...r.checkin, ...updated.checkin },
        cancellationCharge: undefined,
      },
      etag: etag ?? `"${updated.version}"`,
      problem: null,
    });
    draw(detail, ctx);
    const key = action === 'no-show' ? 'noShow' : action;
    const notice = h('p', { class: 'notice', role: 'status' }, t(`desk.${key}.done`));
    document.querySelector('main h1')?.after(notice);
  } catch (problem) {
    if (ctx.signedOut(problem)) return;
    showProblem(form, problem);
  }
}
