// "Payments to look at" on the desk's Today view: what the payment provider reported outside a
// booking's own flow (API.md 4, with Stripe): a refund it refused, a dispute opened, a payment that
// failed late, a payment taken without a booking and given back. Read from the event feed (8.1).
import { h } from '../shared/dom.js';
import { instant, money, t } from '../shared/i18n.js';
import { operator } from './desk-api.js';

const TYPES = ['payment.refund_failed', 'payment.disputed', 'payment.failed', 'payment.voided'];
const PAGES = 5;

/** The hotel's payment events, newest first (the feed is in commit order: read it to its end). */
async function paymentEvents(hotelId) {
  const found = [];
  let after = null;
  for (let page = 0; page < PAGES; page++) {
    const query = new URLSearchParams({ types: TYPES.join(','), limit: '500', ...(after ? { after } : {}) });
    const { body } = await operator('GET', `/events?${query}`);
    found.push(...body.data.filter((e) => e.hotelId === hotelId));
    if (!body.nextCursor || body.data.length === 0) break;
    after = body.nextCursor;
  }
  return found.reverse().slice(0, 20);
}

function eventItem(event) {
  const payment = event.data.payment ?? {};
  const code = event.data.reservation?.id;
  const reason = payment.reason ?? payment.declineCode;
  return h(
    'li',
    { class: `payment-alert ${event.type.replace('.', '-')}` },
    h('strong', {}, t(`desk.payments.${event.type}`)),
    ' · ',
    code ?? t('desk.payments.noReservation'),
    payment.amount ? ` · ${money(payment.amount)}` : '',
    reason ? ` · ${reason}` : '',
    h('span', { class: 'muted' }, ` · ${instant(event.createdAt)}`),
  );
}

/** The section, filled once the feed has answered; empty (and hidden) when there is nothing. */
export function paymentAlerts(hotelId) {
  const section = h('section', { 'aria-labelledby': 'payments-heading', hidden: true });
  paymentEvents(hotelId)
    .then((events) => {
      if (events.length === 0) return;
      section.append(
        h('h2', { id: 'payments-heading' }, t('desk.payments.heading')),
        h('ul', { class: 'desk-list' }, events.map(eventItem)),
      );
      section.hidden = false;
    })
    .catch(() => {});
  return section;
}
