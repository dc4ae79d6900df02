// /book/{hotel}: dates and party → offers → a quote → guest details (and the card when the
// plan is prepaid: a test token or Stripe Elements, see card-payment.js) → the reservation, with a link to check in.
import { api, idempotencyKey, Problem } from '../shared/api.js';
import { payAndSend, paymentConfig, paymentField } from '../shared/card-payment.js';
import { append, field, h, newId } from '../shared/dom.js';
import { busy, clearProblem, problemMessage, showProblem } from '../shared/forms.js';
import { date, instant, language, money, t } from '../shared/i18n.js';
import { setTitle, show, startPage } from '../shared/layout.js';
import { servicePricing, unavailableReason } from '../shared/words.js';
import { nightsPicker } from './nights-picker.js';
import { hotelIntro, roomShowcase } from './showcase.js';

const hotelId = document.body.dataset.hotel;
const state = {
  view: 'search',
  hotel: null,
  /** The language `hotel` was read in: its names (rooms, rates, extras, taxes) are in it. */
  hotelLanguage: null,
  stay: { checkIn: localDate(1), checkOut: localDate(3), adults: 2, children: [], rooms: 1, services: [] },
  results: null,
  searchProblem: null,
  quote: null,
  reservation: null,
  checkinLink: null,
  // One key per distinct reservation body: a retry of the same request replays, a changed one is new.
  attempt: { body: '', key: '' },
};

function localDate(daysAhead) {
  const d = new Date();
  d.setDate(d.getDate() + daysAhead);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function render() {
  if (!state.hotel) return show(h('p', { role: 'alert' }, t('problem.unexpected')));
  setTitle(`${t('book.title')} — ${state.hotel.name}`);
  if (state.view === 'quote') return renderQuote();
  if (state.view === 'done') return renderDone();
  return renderSearch();
}

// ---- search ---------------------------------------------------------------------------------

function renderSearch() {
  const s = state.stay;
  const form = h('form', { class: 'card stack', novalidate: true, onsubmit: onSearch });
  const childRows = h('div', { class: 'stack', id: 'children' });
  const addChildRow = (age) => {
    const select = h(
      'select',
      { name: `child-${childRows.children.length}`, 'data-child-age': '' },
      Array.from({ length: 18 }, (_, a) =>
        h('option', { value: a, selected: a === age }, t('book.age', { count: a })),
      ),
    );
    const row = h(
      'div',
      { class: 'row child-row' },
      field(t('book.childAge', { n: childRows.children.length + 1 }), select, {
        path: `/children/${childRows.children.length}`,
      }),
      h(
        'button',
        {
          type: 'button',
          class: 'link',
          onclick: () => {
            row.remove();
            document.getElementById('add-child').focus();
          },
        },
        t('book.removeChild'),
      ),
    );
    childRows.append(row);
    return select;
  };
  for (const age of s.children) addChildRow(age);

  const services = state.hotel.services.map((service) =>
    h(
      'label',
      { class: 'check' },
      h('input', {
        type: 'checkbox',
        name: `service-${service.id}`,
        value: service.id,
        'data-service': '',
        checked: s.services.includes(service.id),
      }),
      h(
        'span',
        {},
        service.name,
        ' ',
        h('span', { class: 'muted' }, `${money(service.amount)} ${servicePricing(service.pricing)}`),
      ),
    ),
  );

  append(
    form,
    h(
      'div',
      { class: 'row' },
      field(
        t('book.checkIn'),
        h('input', { type: 'date', name: 'checkIn', value: s.checkIn, min: localDate(0), required: true }),
        { path: '/checkIn' },
      ),
      field(
        t('book.checkOut'),
        h('input', { type: 'date', name: 'checkOut', value: s.checkOut, min: localDate(1), required: true }),
        { path: '/checkOut' },
      ),
    ),
    h(
      'div',
      { class: 'row' },
      field(
        t('book.adults'),
        h('input', {
          type: 'number',
          name: 'adults',
          value: s.adults,
          min: 1,
          max: 100,
          inputmode: 'numeric',
          required: true,
        }),
        { path: '/adults' },
      ),
      field(
        t('book.rooms'),
        h('input', {
          type: 'number',
          name: 'rooms',
          value: s.rooms,
          min: 1,
          max: 20,
          inputmode: 'numeric',
          required: true,
        }),
        { path: '/rooms' },
      ),
    ),
    h(
      'fieldset',
      { 'data-path': '/children' },
      h('legend', {}, t('book.children')),
      childRows,
      h(
        'button',
        { type: 'button', id: 'add-child', class: 'secondary', onclick: () => addChildRow(0).focus() },
        t('book.addChild'),
      ),
    ),
    services.length
      ? h('fieldset', { 'data-path': '/services' }, h('legend', {}, t('book.services')), services)
      : null,
    field(
      t('promo.label'),
      h('input', {
        type: 'text',
        name: 'promoCode',
        value: s.promoCode ?? '',
        maxlength: 32,
        autocomplete: 'off',
        autocapitalize: 'characters',
        spellcheck: 'false',
      }),
      { path: '/promoCode', hint: t('promo.hint') },
    ),
    h('button', { type: 'submit', class: 'primary' }, t('book.search')),
  );
  show(
    h('h1', {}, state.hotel.name),
    hotelIntro(state.hotel),
    h(
      'p',
      { class: 'muted' },
      t('book.intro', { checkIn: state.hotel.checkInTime, checkOut: state.hotel.checkOutTime }),
    ),
    nightsPicker(hotelId, form, () => readStay(form)),
    form,
    renderResults(),
    roomShowcase(state.hotel),
  );
  if (state.searchProblem) showProblem(form, state.searchProblem);
}

function readStay(form) {
  const value = (name) => form.elements[name].value;
  const promoCode = value('promoCode').trim().toUpperCase();
  return {
    checkIn: value('checkIn'),
    checkOut: value('checkOut'),
    adults: Number(value('adults')),
    rooms: Number(value('rooms')),
    children: [...form.querySelectorAll('[data-child-age]')].map((el) => Number(el.value)),
    services: [...form.querySelectorAll('[data-service]:checked')].map((el) => el.value),
    ...(promoCode ? { promoCode } : {}),
  };
}

async function onSearch(event) {
  event.preventDefault();
  const form = event.currentTarget;
  state.stay = readStay(form);
  clearProblem(form);
  await busy(form, async () => {
    try {
      state.results = await api('POST', '/booking/availability/search', { body: { hotelId, ...state.stay } });
      state.searchProblem = null;
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      state.results = null;
      state.searchProblem = error;
    }
  });
  render();
  document.getElementById(state.results ? 'offers-heading' : 'main')?.focus();
}

function renderResults() {
  const problem = state.searchProblem;
  if (problem && (problem.code === 'no_availability' || problem.code === 'restriction_window')) {
    return h(
      'section',
      { class: 'stack', 'aria-labelledby': 'offers-heading' },
      h('h2', { id: 'offers-heading', tabindex: '-1' }, t('book.noOffers')),
      unavailableList(problem.errors.map((e) => ({ ...e, roomType: roomTypeName(e.roomTypeId) }))),
    );
  }
  const r = state.results;
  if (!r) return null;
  return h(
    'section',
    { class: 'stack', 'aria-labelledby': 'offers-heading' },
    h('h2', { id: 'offers-heading', tabindex: '-1' }, t('book.offers', { count: r.offers.length })),
    h(
      'p',
      { class: 'muted' },
      t('book.staySummary', { checkIn: date(r.checkIn), checkOut: date(r.checkOut), count: r.nights }),
    ),
    h('ul', { class: 'offers' }, r.offers.map(offerCard)),
    r.unavailable.length ? h('h3', {}, t('book.unavailable')) : null,
    unavailableList(
      r.unavailable.map((u) => ({ ...u, roomType: roomTypeName(u.roomType.id, u.roomType.name) })),
    ),
  );
}

// Names by id from the hotel as read in the page's language: an offer, quote or reservation read
// before a switch of language is then named in the new one without asking again.
function nameIn(list, key, id, fallback) {
  return list?.find((x) => x[key] === id)?.name ?? fallback ?? id;
}
const roomTypeName = (id, fallback) => nameIn(state.hotel.roomTypes, 'id', id, fallback);
const ratePlanName = (id, fallback) => nameIn(state.hotel.ratePlans, 'id', id, fallback);
const serviceName = (id, fallback) => nameIn(state.hotel.services, 'id', id, fallback);
const taxName = (code, fallback) => nameIn(state.hotel.taxes, 'code', code, fallback);

/** "Double Room · Flexible" of an offer, quote or reservation. */
const stayName = (x) =>
  `${roomTypeName(x.roomType.id, x.roomType.name)} · ${inLanguage(x.plan?.names) ?? ratePlanName(x.ratePlan.id, x.ratePlan.name)}`;

function unavailableList(entries) {
  if (!entries.length) return null;
  return h(
    'ul',
    { class: 'unavailable' },
    entries.map((e) => h('li', {}, h('strong', {}, e.roomType), ': ', unavailableReason(e))),
  );
}

function cancellationText(policy) {
  if (!policy.refundable) return t('book.nonRefundable');
  if (!policy.freeCancellationUntil) return t('book.penaltyAlways', { penalty: money(policy.penalty) });
  return t('book.freeCancellation', {
    until: instant(policy.freeCancellationUntil, state.hotel.timezone),
    penalty: money(policy.penalty),
  });
}

/** A text of an occupancy-priced plan in the guest's language, else English, else any (API.md 11.3). */
function inLanguage(texts) {
  if (!texts) return null;
  return texts[language()] ?? texts.en ?? Object.values(texts)[0] ?? null;
}

/** What the plan includes and the offers applied to this stay: meals, free nights, children free. */
function planNotes(plan) {
  if (!plan) return [];
  const meals = ['breakfast', 'lunch', 'dinner']
    .filter((m) => plan.meals?.[m])
    .map((m) => t(`book.meal.${m}`));
  const description = inLanguage(plan.descriptions);
  return [
    description ? h('p', { class: 'muted' }, description) : null,
    meals.length ? h('p', {}, t('book.mealsIncluded', { meals: meals.join(', ') })) : null,
    plan.freeNights.length
      ? h('p', { class: 'offer-applied' }, t('book.freeNights', { count: plan.freeNights.length }))
      : null,
    plan.freeChildren
      ? h('p', { class: 'offer-applied' }, t('book.freeChildren', { count: plan.freeChildren }))
      : null,
  ].filter(Boolean);
}

/** The plan's optional extras (API.md 11.3): those ticked are added to the quote as services. */
function extrasField(plan) {
  if (!plan?.extras?.length) return null;
  return h(
    'fieldset',
    { class: 'extras' },
    h('legend', {}, t('book.extras')),
    plan.extras.map((x) =>
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'checkbox', name: `extra-${x.code}`, value: x.code, 'data-extra': '' }),
        h(
          'span',
          {},
          inLanguage(x.names) ?? x.code,
          ' ',
          h('span', { class: 'muted' }, `+ ${money(x.amount)}`),
        ),
      ),
    ),
  );
}

function offerCard(offer) {
  const headingId = newId('offer');
  const free = new Set(offer.plan?.freeNights ?? []);
  return h(
    'li',
    { class: 'card offer', 'aria-labelledby': headingId },
    h('h3', { id: headingId }, stayName(offer)),
    ...planNotes(offer.plan),
    extrasField(offer.plan),
    h(
      'p',
      { class: 'price' },
      h('span', { class: 'total' }, money(offer.total)),
      ' ',
      h('span', { class: 'muted' }, t('book.totalNote')),
    ),
    offer.promotion
      ? h(
          'p',
          { class: 'promotion' },
          t('promo.applied', { code: offer.promotion.code, name: offer.promotion.name }),
        )
      : null,
    h(
      'details',
      {},
      h('summary', {}, t('book.nightly')),
      h(
        'ul',
        { class: 'nightly' },
        offer.nightly.map((n) =>
          h(
            'li',
            {},
            h('span', {}, date(n.date)),
            h('span', {}, free.has(n.date) ? `${money(n.amount)} · ${t('book.freeNight')}` : money(n.amount)),
          ),
        ),
      ),
    ),
    h('p', {}, cancellationText(offer.cancellationPolicy)),
    h('p', {}, prepaymentText(offer.ratePlan)),
    h(
      'p',
      { class: offer.available <= 3 ? 'warning' : 'muted' },
      t('book.roomsLeft', { count: offer.available }),
    ),
    h(
      'button',
      { type: 'button', class: 'primary', onclick: (event) => chooseOffer(event.currentTarget, offer) },
      t('book.choose'),
      h('span', { class: 'visually-hidden' }, ` ${stayName(offer)}`),
    ),
  );
}

/** When the guest pays: all now, a deposit now and the rest later (API.md 14.2), or at the hotel. */
function prepaymentText(plan) {
  if (plan.prepayment === 'full') return t('book.prepaid');
  if (plan.prepayment !== 'deposit') return t('book.payAtHotel');
  return plan.balanceDueDays > 0
    ? t('deposit.offer', { count: plan.balanceDueDays })
    : t('deposit.offerAtHotel');
}

/** Whether booking the plan takes a card: paid in full, or a deposit with the card kept for the rest. */
const takesCard = (plan) => plan.prepayment === 'full' || plan.prepayment === 'deposit';

/**
 * A deposit plan's schedule as the API gives it (the quote's `schedule`, the reservation's
 * `payment.schedule`): the deposit due now (or paid) and the balance due later, with its date.
 */
function scheduleList(schedule) {
  return h(
    'ul',
    { class: 'schedule', 'data-schedule': '' },
    schedule.map((p) => {
      const amount = money(p.amount);
      if (p.kind === 'deposit')
        return h(
          'li',
          { 'data-kind': 'deposit' },
          t(p.status === 'paid' ? 'deposit.paid' : 'deposit.now', { amount }),
        );
      if (p.collection === 'at_hotel')
        return h('li', { 'data-kind': 'balance' }, t('deposit.atHotel', { amount }));
      const when = instant(p.dueAt, state.hotel.timezone);
      const key =
        p.status === 'paid'
          ? 'deposit.laterPaid'
          : p.status === 'failed'
            ? 'deposit.laterFailed'
            : 'deposit.later';
      return h('li', { 'data-kind': 'balance' }, t(key, { amount, date: when }));
    }),
  );
}

async function chooseOffer(button, offer) {
  button.disabled = true;
  const extras = [...button.closest('.offer').querySelectorAll('[data-extra]:checked')].map((i) => i.value);
  try {
    state.quote = await api('POST', '/booking/quote', {
      body: {
        hotelId,
        ...state.stay,
        services: [...state.stay.services, ...extras],
        roomTypeId: offer.roomType.id,
        ratePlanId: offer.ratePlan.id,
      },
    });
    state.view = 'quote';
    render();
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    button.disabled = false;
    const card = button.closest('.offer');
    showProblem(card, error, { before: card });
  }
}

// ---- quote and guest details -----------------------------------------------------------------

function lineName(line) {
  if (line.type === 'room') return roomTypeName(line.code, line.name);
  if (line.type === 'service') return serviceName(line.code, line.name);
  if (line.type === 'discount') return t('promo.discount', { code: line.code, name: line.name });
  return taxName(line.code, line.name);
}

function lineLabel(line, plan) {
  const supplement =
    line.type === 'service' &&
    [...(plan?.supplements ?? []), ...(plan?.extras ?? [])].find((s) => s.code === line.code);
  if (supplement) return inLanguage(supplement.names) ?? lineName(line);
  if (line.type === 'room')
    return `${lineName(line)} · ${date(line.date)}${line.quantity > 1 ? ` × ${line.quantity}` : ''}`;
  return `${lineName(line)} × ${line.quantity}`;
}

function renderQuote() {
  const q = state.quote;
  const prepaid = takesCard(q.ratePlan);
  // What booking charges now: the deposit of a deposit plan, else the total.
  const now = q.schedule?.find((p) => p.kind === 'deposit')?.amount ?? q.total;
  const form = h('form', { class: 'card stack', novalidate: true, onsubmit: onBook });
  const input = (name, type, autocomplete, required = true) =>
    h('input', { type, name, autocomplete, required, maxlength: type === 'email' ? 254 : 100 });
  append(
    form,
    h('h2', {}, t('book.guestDetails')),
    h(
      'div',
      { class: 'row' },
      field(t('field.firstName'), input('firstName', 'text', 'given-name'), { path: '/guest/firstName' }),
      field(t('field.lastName'), input('lastName', 'text', 'family-name'), { path: '/guest/lastName' }),
    ),
    field(t('field.email'), input('email', 'email', 'email'), { path: '/guest/email' }),
    field(t('field.phoneOptional'), input('phone', 'tel', 'tel', false), { path: '/guest/phone' }),
    field(t('book.specialRequests'), h('textarea', { name: 'specialRequests', rows: 2, maxlength: 1000 }), {
      path: '/specialRequests',
    }),
    prepaid
      ? paymentField('/payment/token', t('book.payNow', { total: money(now) }))
      : h('p', {}, t('book.payAtHotel')),
    h(
      'button',
      { type: 'submit', class: 'primary' },
      prepaid ? t('book.payAndBook', { total: money(now) }) : t('book.book'),
    ),
  );
  show(
    h('h1', {}, t('book.yourStay')),
    h(
      'section',
      { class: 'card stack' },
      h('p', {}, h('strong', {}, stayName(q))),
      ...planNotes(q.plan),
      h(
        'p',
        {},
        t('book.staySummary', { checkIn: date(q.checkIn), checkOut: date(q.checkOut), count: q.nights }),
      ),
      h(
        'table',
        { class: 'lines' },
        h('caption', { class: 'visually-hidden' }, t('book.priceDetails')),
        h(
          'tbody',
          {},
          q.lines.map((line) =>
            h('tr', {}, h('th', { scope: 'row' }, lineLabel(line, q.plan)), h('td', {}, money(line.amount))),
          ),
        ),
        h('tfoot', {}, h('tr', {}, h('th', { scope: 'row' }, t('book.total')), h('td', {}, money(q.total)))),
      ),
      q.includedTaxes.length
        ? h(
            'p',
            { class: 'muted' },
            t('book.includedTaxes', {
              taxes: q.includedTaxes.map((x) => `${taxName(x.code, x.name)} ${money(x.amount)}`).join(', '),
            }),
          )
        : null,
      q.schedule ? scheduleList(q.schedule) : null,
      h('p', {}, cancellationText(q.cancellationPolicy)),
      h('p', { class: 'notice' }, t('book.quoteExpires', { time: instant(q.expiresAt) })),
      h(
        'button',
        {
          type: 'button',
          class: 'link',
          onclick: () => {
            state.view = 'search';
            render();
          },
        },
        t('book.changeStay'),
      ),
    ),
    form,
  );
}

async function onBook(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const value = (name) => form.elements[name]?.value?.trim() ?? '';
  const guest = { firstName: value('firstName'), lastName: value('lastName'), email: value('email') };
  if (value('phone')) guest.phone = value('phone');
  const body = { quoteId: state.quote.id, guest };
  if (value('specialRequests')) body.specialRequests = value('specialRequests');
  const post = (payload) => {
    const json = JSON.stringify(payload);
    if (state.attempt.body !== json) state.attempt = { body: json, key: idempotencyKey() };
    return api('POST', '/booking/reservations', {
      body: payload,
      headers: { 'idempotency-key': state.attempt.key },
    });
  };
  clearProblem(form);
  await busy(form, async () => {
    try {
      state.reservation = takesCard(state.quote.ratePlan)
        ? await payAndSend(form, '/payment/token', (token) => post({ ...body, payment: { token } }))
        : await post(body);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      state.reservation = null;
      showProblem(form, error);
    }
  });
  if (!state.reservation) return;
  state.checkinLink = await openCheckin(state.reservation);
  state.view = 'done';
  render();
}

/** The check-in link: a session opened with the access token, else the form prefilled with the code. */
async function openCheckin(reservation) {
  try {
    const signed = await api('POST', '/checkin/sessions', {
      body: { reservationId: reservation.id },
      headers: { authorization: `Bearer ${reservation.accessToken}` },
    });
    return `/checkin/${encodeURIComponent(signed.session.id)}`;
  } catch {
    return `/checkin?code=${encodeURIComponent(reservation.id)}`;
  }
}

// ---- confirmation ----------------------------------------------------------------------------

function renderDone() {
  const r = state.reservation;
  show(
    h('h1', {}, t('book.confirmed')),
    h(
      'section',
      { class: 'card stack' },
      h('p', {}, t('book.codeIs'), ' ', h('strong', { class: 'code', id: 'reservation-code' }, r.id)),
      h('p', {}, stayName(r)),
      h(
        'p',
        {},
        t('book.staySummary', { checkIn: date(r.checkIn), checkOut: date(r.checkOut), count: r.nights }),
      ),
      h('p', {}, t('book.total'), ': ', h('strong', {}, money(r.total))),
      // A deposit plan's schedule says what was paid and what is charged when (its status alone,
      // `unpaid` until the balance is paid, would say nothing was).
      r.payment.schedule
        ? scheduleList(r.payment.schedule)
        : h(
            'p',
            {},
            t(`paymentStatus.${r.payment.status}`, {
              paid: money(r.payment.paid),
              due: money(r.payment.due),
            }),
          ),
      h('p', { class: 'muted' }, t('book.emailNote', { email: r.guest.email })),
      h('a', { class: 'button primary', href: state.checkinLink, id: 'checkin-link' }, t('book.checkinNow')),
    ),
  );
}

// ---- start -------------------------------------------------------------------------------------

startPage(async () => {
  await paymentConfig();
  if (!state.hotel || state.hotelLanguage !== language()) {
    try {
      state.hotel = await api('GET', `/booking/hotels/${encodeURIComponent(hotelId)}`);
      state.hotelLanguage = language();
    } catch (error) {
      // Read before, in another language: its names still serve.
      if (state.hotel) return render();
      return show(
        h('h1', {}, t('notFound.title')),
        h('p', { role: 'alert' }, error instanceof Problem ? problemMessage(error) : t('problem.unexpected')),
      );
    }
  }
  render();
});
