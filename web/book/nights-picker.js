// The date picker of the booking page (API.md 9.1): a month of nights with each night's lowest
// price for the party, nights with no room greyed, arrivals the hotel closes and stays shorter than
// its minimum refused. Reads GET /booking/hotels/{hotel}/calendar; writes the form's date fields.
import { api } from '../shared/api.js';
import { h, replaceContent } from '../shared/dom.js';
import { date, locale, money, t } from '../shared/i18n.js';

const iso = (d) => d.toISOString().slice(0, 10);
const addDays = (day, n) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return iso(d);
};
const monthStart = (day) => `${day.slice(0, 7)}-01`;
const nextMonth = (first) => {
  const d = new Date(`${first}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return iso(d);
};
const previousMonth = (first) => {
  const d = new Date(`${first}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return iso(d);
};

/**
 * `form` holds `checkIn`, `checkOut`, `adults`, `rooms` and the children's ages; `readParty()`
 * reads the party from it. Returns the picker's element.
 */
export function nightsPicker(hotelId, form, readParty) {
  const root = h('section', { class: 'card stack nights', 'aria-labelledby': 'nights-heading' });
  let month = monthStart(form.elements.checkIn.value || iso(new Date()));
  let nights = new Map();
  let choosing = 'arrival';
  const status = h('p', { class: 'muted', role: 'status' });

  async function load() {
    const party = readParty();
    const query = new URLSearchParams({
      from: month,
      to: nextMonth(month),
      adults: String(party.adults),
      rooms: String(party.rooms),
    });
    if (party.children.length) query.set('children', party.children.join(','));
    try {
      const { data } = await api('GET', `/booking/hotels/${encodeURIComponent(hotelId)}/calendar?${query}`);
      nights = new Map(data.map((n) => [n.date, n]));
    } catch {
      nights = new Map();
    }
    draw();
  }

  function pick(day) {
    const night = nights.get(day);
    const checkIn = form.elements.checkIn.value;
    if (choosing === 'departure' && day > checkIn) {
      const arrival = nights.get(checkIn);
      const length = Math.round((Date.parse(day) - Date.parse(checkIn)) / 86_400_000);
      if (arrival?.minStay && length < arrival.minStay) {
        status.textContent = t('book.nights.minStay', { count: arrival.minStay });
        return;
      }
      if (night?.closedToDeparture) {
        status.textContent = t('book.nights.closedToDeparture');
        return;
      }
      form.elements.checkOut.value = day;
      choosing = 'arrival';
      status.textContent = t('book.nights.chosen', { checkIn: date(checkIn), checkOut: date(day) });
    } else {
      if (!night?.available || night.closedToArrival) {
        status.textContent = t(night?.available ? 'book.nights.closedToArrival' : 'book.nights.soldOut');
        return;
      }
      form.elements.checkIn.value = day;
      form.elements.checkOut.value = addDays(day, Math.max(1, night.minStay ?? 1));
      choosing = 'departure';
      status.textContent = t('book.nights.pickDeparture');
    }
    draw();
  }

  function dayButton(day) {
    const night = nights.get(day);
    const checkIn = form.elements.checkIn.value;
    const checkOut = form.elements.checkOut.value;
    const selected = day >= checkIn && day < checkOut;
    const open = night?.available && !night.closedToArrival;
    const price = night?.fromPrice ? money(night.fromPrice) : '—';
    const said = [
      night?.available ? t('book.nights.from', { price }) : t('book.nights.soldOut'),
      night?.available && night.closedToArrival ? t('book.nights.closedToArrival') : null,
    ].filter(Boolean);
    // The visible day and price first, then what a screen reader needs besides (the full date).
    return h(
      'button',
      {
        type: 'button',
        class: `night${night?.available ? '' : ' sold-out'}${open ? '' : ' closed'}${selected ? ' selected' : ''}`,
        'aria-pressed': selected ? 'true' : 'false',
        onclick: () => pick(day),
      },
      h('span', { class: 'day' }, String(Number(day.slice(8)))),
      h('span', { class: 'visually-hidden' }, ` ${date(day, 'full')}: `),
      h('span', { class: 'night-price' }, night?.available ? price : '—'),
      said.length > 1 || !night?.available
        ? h('span', { class: 'visually-hidden' }, `, ${said.join(', ')}`)
        : null,
    );
  }

  function draw() {
    const first = new Date(`${month}T00:00:00Z`);
    const lead = (first.getUTCDay() + 6) % 7; // Monday first
    const days = [];
    for (let d = month; d < nextMonth(month); d = addDays(d, 1)) days.push(d);
    const title = new Intl.DateTimeFormat(locale(), {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(first);
    const weekdays = Array.from({ length: 7 }, (_, i) =>
      new Intl.DateTimeFormat(locale(), { weekday: 'short', timeZone: 'UTC' }).format(
        new Date(Date.UTC(2024, 0, 1 + i)),
      ),
    );
    replaceContent(
      root,
      h('h2', { id: 'nights-heading' }, t('book.nights.heading')),
      h(
        'div',
        { class: 'row month-bar' },
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            onclick: () => {
              month = previousMonth(month);
              load();
            },
          },
          '‹ ',
          t('book.nights.previous'),
        ),
        h('strong', { class: 'month-title' }, title),
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            onclick: () => {
              month = nextMonth(month);
              load();
            },
          },
          t('book.nights.next'),
          ' ›',
        ),
      ),
      h(
        'div',
        { class: 'month-grid' },
        weekdays.map((w) => h('span', { class: 'weekday', 'aria-hidden': 'true' }, w)),
        Array.from({ length: lead }, () => h('span', { 'aria-hidden': 'true' })),
        days.map(dayButton),
      ),
      status,
    );
  }

  draw();
  load();
  form.addEventListener('change', (event) => {
    const name = event.target?.name ?? '';
    if (name === 'checkIn' && form.elements.checkIn.value) month = monthStart(form.elements.checkIn.value);
    if (name === 'checkIn' || name === 'adults' || name === 'rooms' || name.startsWith('child-')) load();
  });
  return root;
}
