// The calendar of API.md 7.4 at the desk: room types × a fortnight of nights, each night showing
// rooms left, whether it is closed, and the price of each rate plan; a night opens a small form
// that changes rooms, stop-sell and prices through PATCH.
import { api } from '../shared/api.js';
import { field, h } from '../shared/dom.js';
import { busy, problemMessage, showProblem } from '../shared/forms.js';
import { date, language, locale, money, t } from '../shared/i18n.js';
import { show } from '../shared/layout.js';
import { addDays, hotelToday, isMissingEndpoint, operator } from './desk-api.js';

const NIGHTS = 14;
const view = {
  hotelId: null,
  from: null,
  data: null,
  /** Room type and rate plan names by id, in `namesLanguage` (the public hotel endpoint's). */
  names: {},
  planNames: {},
  namesLanguage: null,
  problem: null,
  missing: false,
  editing: null,
};

/** Minor units per major unit of a currency (100 for EUR, 1 for JPY). */
function unit(currency) {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits;
  return 10 ** (digits ?? 2);
}

export async function renderCalendar(ctx) {
  const hotel = ctx.hotel;
  if (view.hotelId !== hotel.id) {
    Object.assign(view, { hotelId: hotel.id, from: hotelToday(hotel.timezone), data: null, editing: null });
    await Promise.all([load(hotel), loadNames(hotel)]);
  } else {
    await Promise.all([
      !view.data && !view.problem && !view.missing ? load(hotel) : null,
      view.namesLanguage !== language() ? loadNames(hotel) : null,
    ]);
  }
  draw(ctx);
}

async function loadNames(hotel) {
  try {
    const body = await api('GET', `/booking/hotels/${encodeURIComponent(hotel.id)}`);
    view.names = Object.fromEntries(body.roomTypes.map((rt) => [rt.id, rt.name]));
    view.planNames = Object.fromEntries((body.ratePlans ?? []).map((rp) => [rp.id, rp.name]));
  } catch {
    // ids stand in for names
    view.names = {};
    view.planNames = {};
  }
  view.namesLanguage = language();
}

async function load(hotel) {
  const to = addDays(view.from, NIGHTS - 1);
  try {
    const { body } = await operator(
      'GET',
      `/hotels/${encodeURIComponent(hotel.id)}/calendar?${new URLSearchParams({ from: view.from, to })}`,
    );
    Object.assign(view, { data: body, problem: null, missing: false });
  } catch (problem) {
    Object.assign(view, { data: null, problem, missing: isMissingEndpoint(problem) });
  }
}

function draw(ctx) {
  const hotel = ctx.hotel;
  if (view.problem && ctx.signedOut(view.problem)) {
    view.hotelId = null; // read again after signing in
    return;
  }
  const fromInput = h('input', { type: 'date', name: 'calendarFrom', value: view.from, required: true });
  const move = async (days) => {
    view.from = addDays(view.from, days);
    view.editing = null;
    await load(hotel);
    draw(ctx);
  };
  const controls = h(
    'form',
    {
      class: 'card stack',
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        if (!fromInput.value) return;
        view.from = fromInput.value;
        view.editing = null;
        await load(hotel);
        draw(ctx);
      },
    },
    h(
      'div',
      { class: 'row' },
      field(t('desk.calendar.from'), fromInput),
      h('button', { type: 'submit', class: 'primary' }, t('desk.calendar.show')),
    ),
    h(
      'div',
      { class: 'buttons' },
      h(
        'button',
        { type: 'button', class: 'secondary', onclick: () => move(-NIGHTS) },
        t('desk.calendar.previous'),
      ),
      h(
        'button',
        { type: 'button', class: 'secondary', onclick: () => move(NIGHTS) },
        t('desk.calendar.next'),
      ),
    ),
  );
  let body;
  if (view.missing) body = h('p', { class: 'notice' }, t('desk.calendar.unavailable'));
  else if (view.problem)
    body = h('div', { class: 'form-alert', role: 'alert' }, problemMessage(view.problem));
  else if (view.data) body = [grid(hotel, ctx), view.editing ? editor(hotel, ctx) : null];
  show(...ctx.frame(h('h1', {}, t('desk.calendar.heading')), controls, body));
}

function grid(hotel, ctx) {
  const data = view.data;
  const dates = data.roomTypes[0]?.nights.map((n) => n.date) ?? [];
  const weekday = (d) =>
    new Intl.DateTimeFormat(locale(), {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    }).format(new Date(`${d}T00:00:00Z`));
  const caption = t('desk.calendar.caption', { from: date(data.from), to: date(data.to) });
  // The caption stays above the grid, outside what scrolls sideways, so a phone shows it whole.
  return [
    h('p', { class: 'desk-grid-caption', id: 'calendar-caption' }, caption),
    h(
      'div',
      { class: 'desk-grid-wrap', role: 'region', 'aria-labelledby': 'calendar-caption', tabindex: '0' },
      h(
        'table',
        { class: 'desk-grid' },
        h('caption', { class: 'visually-hidden' }, caption),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, t('desk.calendar.roomType')),
            dates.map((d) => h('th', { scope: 'col' }, weekday(d))),
          ),
        ),
        h(
          'tbody',
          {},
          data.roomTypes.map((rt) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, view.names[rt.id] ?? rt.id),
              rt.nights.map((night) =>
                h(
                  'td',
                  {
                    class:
                      [night.restrictions?.stopSell ? 'closed' : '', night.conflicts > 0 ? 'conflict' : '']
                        .filter(Boolean)
                        .join(' ') || null,
                  },
                  cell(hotel, rt, night, ctx),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  ];
}

const planName = (id) => view.planNames[id] ?? id;

function cell(hotel, rt, night, ctx) {
  const closed = night.restrictions?.stopSell;
  return h(
    'button',
    {
      type: 'button',
      class: 'desk-cell',
      'data-room-type': rt.id,
      'data-date': night.date,
      'aria-pressed':
        view.editing?.roomTypeId === rt.id && view.editing?.date === night.date ? 'true' : 'false',
      onclick: () => {
        view.editing = { roomTypeId: rt.id, date: night.date };
        draw(ctx);
        document.getElementById('calendar-editor-heading')?.focus();
      },
    },
    h('span', { class: 'visually-hidden' }, `${view.names[rt.id] ?? rt.id}, ${date(night.date)}: `),
    h(
      'span',
      { class: 'left' },
      closed ? t('desk.calendar.closed') : t('desk.calendar.left', { left: night.left, rooms: night.rooms }),
    ),
    // Rooms other channels hold (imported iCal feeds), and those that found the room already sold.
    night.external > 0
      ? h('span', { class: 'external' }, t('desk.calendar.external', { count: night.external }))
      : null,
    night.conflicts > 0
      ? h('span', { class: 'conflict' }, t('desk.calendar.conflicts', { count: night.conflicts }))
      : null,
    Object.entries(night.prices ?? {}).map(([rp, price]) =>
      h(
        'span',
        { class: 'price' },
        h('span', { class: 'plan' }, planName(rp)),
        ' ',
        h('span', { class: 'amount' }, money({ amount: price.base, currency: hotel.currency })),
      ),
    ),
  );
}

function editor(hotel, ctx) {
  const { roomTypeId, date: night } = view.editing;
  const rt = view.data.roomTypes.find((x) => x.id === roomTypeId);
  const current = rt?.nights.find((n) => n.date === night);
  if (!current) return null;
  const per = unit(hotel.currency);
  const rooms = h('input', {
    type: 'number',
    name: 'rooms',
    // Rooms held by other channels are taken too (all but the overbooked ones).
    min: current.sold + (current.external ?? 0) - (current.conflicts ?? 0),
    max: 10000,
    step: 1,
    value: current.rooms,
    inputmode: 'numeric',
  });
  const stopSell = h('input', {
    type: 'checkbox',
    name: 'stopSell',
    checked: Boolean(current.restrictions?.stopSell),
  });
  const prices = Object.entries(current.prices ?? {}).map(([rp, price]) => ({
    rp,
    input: h('input', {
      type: 'number',
      name: `price-${rp}`,
      min: 0,
      step: 1 / per,
      value: price.base / per,
      inputmode: 'decimal',
    }),
    base: price.base,
  }));
  const form = h(
    'form',
    { class: 'card stack desk-editor', novalidate: true, onsubmit: (event) => save(event, form) },
    h(
      'h2',
      { id: 'calendar-editor-heading', tabindex: '-1' },
      t('desk.calendar.editHeading', {
        roomType: view.names[roomTypeId] ?? roomTypeId,
        date: date(night, 'full'),
      }),
    ),
    h('p', { class: 'muted' }, t('desk.calendar.sold', { count: current.sold })),
    current.external > 0
      ? h('p', { class: 'muted' }, t('desk.calendar.external', { count: current.external }))
      : null,
    current.conflicts > 0
      ? h(
          'p',
          { class: 'form-alert', role: 'alert' },
          `${t('desk.calendar.conflicts', { count: current.conflicts })}. ${t('desk.calendar.conflictsHelp')}`,
        )
      : null,
    field(t('desk.calendar.rooms'), rooms),
    h('label', { class: 'check' }, stopSell, h('span', {}, t('desk.calendar.stopSell'))),
    prices.map((p) =>
      field(t('desk.calendar.price', { ratePlan: planName(p.rp), currency: hotel.currency }), p.input),
    ),
    h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'submit', class: 'primary' }, t('desk.calendar.save')),
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => {
            view.editing = null;
            draw(ctx);
          },
        },
        t('desk.calendar.close'),
      ),
    ),
  );

  async function save(event) {
    event.preventDefault();
    // Only what changed: an unchanged value is not written as an override of its own.
    const set = {};
    if (Number(rooms.value) !== current.rooms) set.rooms = Number(rooms.value);
    if (stopSell.checked !== Boolean(current.restrictions?.stopSell)) set.stopSell = stopSell.checked;
    const base = { roomTypeIds: [roomTypeId], from: night, to: night };
    const updates = [
      ...(Object.keys(set).length > 0 ? [{ ...base, set }] : []),
      ...prices
        .map((p) => ({ ...p, amount: Math.round(Number(p.input.value) * per) }))
        .filter((p) => p.amount !== p.base)
        .map((p) => ({ ...base, ratePlanIds: [p.rp], set: { base: p.amount } })),
    ];
    if (updates.length === 0) {
      view.editing = null;
      return draw(ctx);
    }
    try {
      await busy(form, () =>
        operator('PATCH', `/hotels/${encodeURIComponent(hotel.id)}/calendar`, { body: { updates } }),
      );
      view.editing = null;
      await load(hotel);
      draw(ctx);
      document
        .querySelector('main h1')
        ?.after(h('p', { class: 'notice', role: 'status' }, t('desk.calendar.saved')));
    } catch (problem) {
      if (ctx.signedOut(problem)) return;
      showProblem(form, problem);
    }
  }
  return form;
}
