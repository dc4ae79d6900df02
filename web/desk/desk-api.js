// Calls to the operator API with the key pasted into this tab, or with the session cookie of a
// signed-in person (API.md 12). The key lives only in sessionStorage (gone when the tab closes),
// never in a URL or cookie, and goes out only as an Authorization header to this origin.
import { api, fetchJson, idempotencyKey, Problem } from '../shared/api.js';
import { language } from '../shared/i18n.js';

const KEY_STORAGE = 'innkeep.desk.key';

export function savedKey() {
  try {
    return sessionStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

export function saveKey(key) {
  try {
    sessionStorage.setItem(KEY_STORAGE, key);
  } catch {
    // Storage disabled: the key then lasts only as long as this page (kept in memory below).
  }
  memoryKey = key;
}

export function forgetKey() {
  try {
    sessionStorage.removeItem(KEY_STORAGE);
  } catch {
    // nothing stored
  }
  memoryKey = null;
}

let memoryKey = null;
/** Signed in as a person (API.md 12): calls carry the session cookie instead of a key. */
let bySession = false;

export function useSession(on) {
  bySession = on;
}

/**
 * `{ body, etag }` of an operator call, or a thrown Problem carrying the API's problem details.
 * POSTs carry a fresh Idempotency-Key unless the caller passes one (to retry the same request).
 */
export async function operator(method, path, { body, headers = {}, key } = {}) {
  const credential = key ?? memoryKey ?? savedKey();
  const session = bySession && !credential;
  const { json, response } = await fetchJson(`/api/v1/operator${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(session ? {} : { authorization: `Bearer ${credential ?? ''}` }),
      ...(method === 'POST' ? { 'idempotency-key': idempotencyKey() } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
    credentials: session ? 'same-origin' : 'omit',
    cache: 'no-store',
  });
  return { body: json, etag: response.headers.get('etag') };
}

/** A file the operator API answers (an invoice's PDF) as a Blob, or a thrown Problem. */
export async function operatorFile(path, { key } = {}) {
  const credential = key ?? memoryKey ?? savedKey();
  let response;
  try {
    response = await fetch(`/api/v1/operator${path}`, {
      headers: { authorization: `Bearer ${credential ?? ''}` },
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      cache: 'no-store',
    });
  } catch {
    throw new Problem({ code: 'network_error' }, 0);
  }
  if (!response.ok) {
    const json = await response.json().catch(() => null);
    throw new Problem(json ?? { code: 'unexpected' }, response.status);
  }
  return response.blob();
}

/**
 * The server has no such endpoint at all (an older server), as opposed to an unknown reservation:
 * a 404 `not_found` whose problem carries `unknownRoute: true` (never judged by its English text).
 */
export function isMissingEndpoint(problem) {
  return (
    problem instanceof Problem &&
    problem.status === 404 &&
    problem.code === 'not_found' &&
    problem.unknownRoute
  );
}

/** The hotel's calendar date now, `YYYY-MM-DD`, in its own time zone (not the browser's). */
export function hotelToday(timeZone) {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

export function addDays(date, n) {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/**
 * The catalogue's names of a hotel's room types and rate plans in the page's language (from the
 * public hotel endpoint, API.md 9): the operator API answers the plain names a reservation was
 * stored with. Read once per hotel and language; ids fall back to the names given.
 */
const catalogNames = { key: null, roomTypes: {}, ratePlans: {} };

export async function loadCatalogNames(hotelId) {
  const key = `${hotelId} ${language()}`;
  if (catalogNames.key === key) return;
  try {
    const body = await api('GET', `/booking/hotels/${encodeURIComponent(hotelId)}`);
    catalogNames.roomTypes = Object.fromEntries(body.roomTypes.map((x) => [x.id, x.name]));
    catalogNames.ratePlans = Object.fromEntries((body.ratePlans ?? []).map((x) => [x.id, x.name]));
  } catch {
    catalogNames.roomTypes = {};
    catalogNames.ratePlans = {};
  }
  catalogNames.key = key;
}

/** `{ id, name }` of a room type or rate plan, named in the page's language when known. */
export const roomTypeName = (roomType) => catalogNames.roomTypes[roomType.id] ?? roomType.name;
export const ratePlanName = (ratePlan) => catalogNames.ratePlans[ratePlan.id] ?? ratePlan.name;
