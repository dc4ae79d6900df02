// /desk: the front desk. A person signs in (password or passkey: desk-sign-in.js) or pastes an
// operator key (kept in this tab only) → today's arrivals and departures, search, a reservation's
// details with cancel / arrive / depart, the calendar, and a person's own account.
import { Problem } from '../shared/api.js';
import { field, h } from '../shared/dom.js';
import { busy, problemMessage, showProblem } from '../shared/forms.js';
import { date, t } from '../shared/i18n.js';
import { setTitle, show, startPage } from '../shared/layout.js';
import { renderAccount } from './desk-account.js';
import {
  forgetKey,
  hotelToday,
  loadCatalogNames,
  operator,
  savedKey,
  saveKey,
  useSession,
} from './desk-api.js';
import { renderAudit, resetAudit } from './desk-audit.js';
import { auth, currentPerson } from './desk-auth.js';
import { renderCalendar } from './desk-calendar.js';
import { paymentAlerts } from './desk-payments.js';
import { renderPromotions, resetPromotions } from './desk-promotions.js';
import { reservationSummary, showReservation } from './desk-reservation.js';
import { renderLinkPage, renderSignIn } from './desk-sign-in.js';
import { renderStaff, resetStaff } from './desk-staff.js';

const state = {
  signedIn: false,
  keyProblem: null,
  person: null, // `GET /auth/me` when signed in as a person (no key in the tab)
  signInProblem: null,
  hotels: [],
  hotelId: null,
  view: 'today',
  today: null, // { date, arrivals, departures, problem }
  search: { q: '', status: '', results: null, nextCursor: null, problem: null },
  detail: null, // the reservation shown, from a list
  can: { staff: false, audit: false, promotions: false }, // sections the credential may open (API.md 12)
};

const hotel = () => state.hotels.find((x) => x.id === state.hotelId);
const list = (query) =>
  operator('GET', `/hotels/${encodeURIComponent(state.hotelId)}/reservations?${new URLSearchParams(query)}`);

async function render() {
  setTitle(t('desk.title'));
  if (!state.signedIn) return renderKey();
  if (state.view === 'account' && state.person)
    return renderAccount({ frame, person: state.person, signedOut });
  if (state.hotelId) await loadCatalogNames(state.hotelId);
  if (state.view === 'detail' && state.detail) {
    return showReservation(state.detail, {
      frame,
      hotel: hotel(),
      signedOut,
      back: () => go(state.detail.from ?? 'today'),
    });
  }
  if (state.view === 'search') return renderSearch();
  if (state.view === 'calendar') return renderCalendar({ frame, hotel: hotel(), signedOut });
  if (state.view === 'staff' && state.can.staff)
    return renderStaff({ frame, hotels: state.hotels, person: state.person, signedOut });
  if (state.view === 'promotions' && state.can.promotions)
    return renderPromotions({ frame, hotel: hotel(), signedOut });
  if (state.view === 'audit' && state.can.audit)
    return renderAudit({ frame, hotels: state.hotels, signedOut });
  return renderToday();
}

// ---- the key ----------------------------------------------------------------------------------

function renderKey() {
  const link = { '/desk/welcome': 'welcome', '/desk/reset': 'reset' }[location.pathname];
  const input = h('input', {
    type: 'password',
    name: 'operatorKey',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
  });
  const form = h(
    'form',
    { class: 'card stack', novalidate: true, onsubmit: (event) => signIn(event, form, input) },
    field(t('desk.key.label'), input, { path: '/key', hint: t('desk.key.hint') }),
    h('button', { type: 'submit', class: 'primary' }, t('desk.key.submit')),
  );
  const keyForm = [h('h2', { id: 'desk-key-heading' }, t('desk.key.heading')), form];
  if (link) return renderLinkPage({ kind: link, keyForm, onSignedIn: personSignedIn });
  renderSignIn({ keyForm, onSignedIn: personSignedIn, problem: state.signInProblem });
  if (state.keyProblem) showProblem(form, state.keyProblem);
}

/** A person signed in (API.md 12): the desk works with their session, as their role allows. */
async function personSignedIn() {
  forgetKey();
  useSession(true);
  state.person = await currentPerson();
  state.signInProblem = null;
  state.keyProblem = null;
  await loadHotels(undefined);
  await go(allowed('reservations:read') ? 'today' : 'account');
}

/** Whether the person's role grants `scope` (a key: the API decides, every section is shown). */
const allowed = (scope) => !state.person || state.person.scopes.includes(scope);

async function signIn(event, form, input) {
  event.preventDefault();
  const key = input.value.trim();
  if (!key) return showProblem(form, new Problem({ detail: t('desk.key.missing') }, 400));
  try {
    await busy(form, () => loadHotels(key));
    saveKey(key);
    state.keyProblem = null;
    await go('today');
  } catch (problem) {
    showProblem(form, problem);
  }
}

async function loadHotels(key) {
  const { body } = await operator('GET', '/hotels', { key });
  state.hotels = body.data;
  state.hotelId = state.hotels.some((x) => x.id === state.hotelId)
    ? state.hotelId
    : (state.hotels[0]?.id ?? null);
  state.signedIn = true;
  // The staff and audit sections show for a credential whose scope reads them (a 403 hides them).
  const reads = async (path) =>
    operator('GET', path, { key }).then(
      () => true,
      () => false,
    );
  // Promotion codes need inventory:write, which a read cannot probe: a person's role says it; for a
  // key, the list answers 403 without it (its scope check comes before the hotel's).
  const promotionsAllowed = state.hotelId
    ? state.person
      ? allowed('inventory:write')
      : reads(`/hotels/${encodeURIComponent(state.hotelId)}/promotions`)
    : false;
  const [staff, audit, promotions] = await Promise.all([
    reads('/staff'),
    reads('/audit-log?limit=1'),
    promotionsAllowed,
  ]);
  state.can = { staff, audit, promotions };
  resetStaff();
  resetPromotions();
  resetAudit();
}

async function signOut() {
  if (state.person) await auth('POST', '/sign-out').catch(() => null);
  useSession(false);
  state.person = null;
  forgetKey();
  Object.assign(state, {
    signedIn: false,
    hotels: [],
    hotelId: null,
    today: null,
    detail: null,
    view: 'today',
    can: { staff: false, audit: false, promotions: false },
  });
  state.search = { q: '', status: '', results: null, nextCursor: null, problem: null };
  render();
}

/** A 401 means the key was revoked or mistyped: back to the key form, saying why. */
function signedOut(problem) {
  if (problem?.status !== 401) return false;
  forgetKey();
  state.signedIn = false;
  if (state.person) state.signInProblem = problem instanceof Problem ? problem : null;
  else state.keyProblem = problem;
  state.person = null;
  useSession(false);
  render();
  return true;
}

// ---- the frame: hotel chooser and sections -----------------------------------------------------

/** The bar above every screen: hotel, sections, sign out. */
function frame(...content) {
  const chooser =
    state.hotels.length > 1
      ? field(
          t('desk.hotel'),
          h(
            'select',
            {
              id: 'desk-hotel',
              onchange: (event) => {
                state.hotelId = event.target.value;
                state.today = null;
                state.search.results = null;
                go(state.view === 'detail' ? 'today' : state.view);
              },
            },
            state.hotels.map((x) => h('option', { value: x.id, selected: x.id === state.hotelId }, x.name)),
          ),
        )
      : h('p', { class: 'desk-hotel-name' }, hotel()?.name ?? t('desk.noHotel'));
  const tab = (view) =>
    h(
      'button',
      {
        type: 'button',
        class: state.view === view ? 'primary' : 'secondary',
        'aria-current': state.view === view ? 'page' : false,
        onclick: () => go(view),
      },
      t(view === 'account' ? 'account.nav' : `desk.nav.${view}`),
    );
  return [
    h(
      'div',
      { class: 'desk-bar' },
      chooser,
      h(
        'nav',
        { 'aria-label': t('desk.nav.label'), class: 'buttons' },
        allowed('reservations:read') ? tab('today') : null,
        allowed('reservations:read') ? tab('search') : null,
        allowed('inventory:read') ? tab('calendar') : null,
        state.person ? tab('account') : null,
        state.can.promotions ? tab('promotions') : null,
        state.can.staff ? tab('staff') : null,
        state.can.audit ? tab('audit') : null,
      ),
      h('button', { type: 'button', class: 'link', onclick: signOut }, t('desk.signOut')),
    ),
    // Screens pass optional parts as null and groups as arrays; the DOM wants nodes only.
    ...content.flat(Infinity).filter((part) => part !== null && part !== undefined && part !== false),
  ];
}

async function go(view) {
  state.view = view;
  if (view === 'today' && state.hotelId && !(await loadToday())) return;
  render();
}

/** Opens a reservation of a list; the detail screen reads its full state itself. */
function open(reservation) {
  state.detail = { reservation, from: state.view };
  state.view = 'detail';
  render();
}

// ---- today ------------------------------------------------------------------------------------

async function loadToday() {
  const today = hotelToday(hotel().timezone);
  try {
    const [arrivals, departures] = await Promise.all([
      list({ arrivalFrom: today, arrivalTo: today, status: 'confirmed', limit: '200' }),
      list({ departureFrom: today, departureTo: today, status: 'confirmed', limit: '200' }),
    ]);
    state.today = { date: today, arrivals: arrivals.body.data, departures: departures.body.data };
  } catch (problem) {
    if (signedOut(problem)) return false;
    state.today = { date: today, problem };
  }
  return true;
}

function reservationList(items, label) {
  if (items.length === 0) return h('p', { class: 'muted' }, t('desk.none'));
  return h(
    'ul',
    { class: 'desk-list', 'aria-label': label },
    items.map((r) =>
      h(
        'li',
        {},
        reservationSummary(r, () => open(r)),
      ),
    ),
  );
}

function renderToday() {
  const today = state.today;
  if (!today) return show(...frame(h('p', { class: 'loading' }, t('loading'))));
  const alert = today.problem
    ? h('div', { class: 'form-alert', role: 'alert' }, problemMessage(today.problem))
    : null;
  show(
    ...frame(
      h('h1', {}, t('desk.today.heading', { date: date(today.date, 'full') })),
      alert,
      paymentAlerts(state.hotelId),
      h(
        'section',
        { 'aria-labelledby': 'arrivals-heading' },
        h('h2', { id: 'arrivals-heading' }, t('desk.arrivals', { count: today.arrivals?.length ?? 0 })),
        reservationList(today.arrivals ?? [], t('desk.arrivals', { count: today.arrivals?.length ?? 0 })),
      ),
      h(
        'section',
        { 'aria-labelledby': 'departures-heading' },
        h('h2', { id: 'departures-heading' }, t('desk.departures', { count: today.departures?.length ?? 0 })),
        reservationList(
          today.departures ?? [],
          t('desk.departures', { count: today.departures?.length ?? 0 }),
        ),
      ),
      h('button', { type: 'button', class: 'secondary', onclick: () => go('today') }, t('desk.refresh')),
    ),
  );
}

// ---- search -----------------------------------------------------------------------------------

function renderSearch() {
  const s = state.search;
  const form = h(
    'form',
    { class: 'card stack', role: 'search', novalidate: true, onsubmit: (event) => runSearch(event, form) },
    h(
      'div',
      { class: 'row' },
      field(t('desk.search.q'), h('input', { type: 'search', name: 'q', value: s.q, maxlength: 100 }), {
        path: '/query/q',
      }),
      field(
        t('desk.search.status'),
        h(
          'select',
          { name: 'status' },
          ['', 'confirmed', 'cancelled'].map((v) =>
            h(
              'option',
              { value: v, selected: v === s.status },
              t(v ? `desk.status.${v}` : 'desk.search.anyStatus'),
            ),
          ),
        ),
        { path: '/query/status' },
      ),
    ),
    h('button', { type: 'submit', class: 'primary' }, t('desk.search.submit')),
  );
  const results =
    s.results === null
      ? null
      : h(
          'section',
          { 'aria-labelledby': 'results-heading' },
          h(
            'h2',
            { id: 'results-heading', 'aria-live': 'polite' },
            t('desk.search.results', { count: s.results.length }),
          ),
          s.results.length === 0
            ? h('p', { class: 'muted' }, t('desk.search.noResults'))
            : reservationList(s.results, t('desk.search.results', { count: s.results.length })),
          s.nextCursor
            ? h(
                'button',
                { type: 'button', class: 'secondary', onclick: (e) => more(e.target) },
                t('desk.search.more'),
              )
            : null,
        );
  show(...frame(h('h1', {}, t('desk.search.heading')), form, results));
  if (s.problem) showProblem(form, s.problem);
}

async function runSearch(event, form) {
  event.preventDefault();
  const s = state.search;
  s.q = form.elements.q.value.trim();
  s.status = form.elements.status.value;
  const query = { limit: '50', ...(s.q ? { q: s.q } : {}), ...(s.status ? { status: s.status } : {}) };
  try {
    const { body } = await busy(form, () => list(query));
    Object.assign(s, { results: body.data, nextCursor: body.nextCursor, problem: null });
  } catch (problem) {
    if (signedOut(problem)) return;
    Object.assign(s, { results: null, nextCursor: null, problem });
  }
  render();
  document.getElementById('results-heading')?.focus();
}

async function more(button) {
  const s = state.search;
  button.disabled = true;
  try {
    const { body } = await list({ cursor: s.nextCursor, limit: '50' });
    s.results = [...s.results, ...body.data];
    s.nextCursor = body.nextCursor;
    render();
  } catch (problem) {
    if (signedOut(problem)) return;
    s.problem = problem;
    render();
  }
}

// ---- start ------------------------------------------------------------------------------------

startPage(async () => {
  if (!state.signedIn && !state.keyProblem && !savedKey() && location.pathname === '/desk') {
    try {
      const person = await currentPerson();
      if (person) {
        useSession(true);
        state.person = person;
        await loadHotels(undefined);
        if (!allowed('reservations:read')) state.view = 'account';
        else if (state.hotelId) await loadToday();
      }
    } catch (problem) {
      state.signInProblem = problem;
    }
  }
  if (!state.signedIn && !state.keyProblem && savedKey()) {
    try {
      await loadHotels(savedKey());
      if (state.hotelId) await loadToday();
    } catch (problem) {
      if (!signedOut(problem)) state.keyProblem = problem;
    }
  }
  // Awaited, so the page restores field values after this draw (a language switch).
  await render();
});
