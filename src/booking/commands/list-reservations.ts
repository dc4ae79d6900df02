import type { AppContext } from '../../context.ts';
import { isCalendarDate, nightsBetween } from '../../dates/dates.ts';
import { type ProblemDetailEntry, validationProblem } from '../../infra/http/problems.ts';
import {
  type CursorCodec,
  isListCursorState,
  type ListCursorState,
  listCursorCodec,
} from '../../operator-access/list-cursor.ts';
import { requireVisibleHotel } from '../../operator-access/operator-auth.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { foldSearchText, type ReservationRow } from '../../reservations/reservation.row.ts';
import {
  type ListPosition,
  type ReservationFilter,
  reservationListRepository,
} from '../reservation-list.repository.ts';
import type { ReservationListQuery } from '../reservation-list.schemas.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
/** Inclusive dates in one range, as for the calendar (API.md 7.4). */
export const MAX_RANGE_DAYS = 366;

/** The filters of a request, in the form a cursor carries them (folded `q`, absent = not set). */
type Filters = Omit<ReservationFilter, 'hotelId'>;
const FILTER_NAMES = [
  'status',
  'arrivalFrom',
  'arrivalTo',
  'departureFrom',
  'departureTo',
  'checkin',
  'q',
] as const satisfies ReadonlyArray<keyof Filters>;

/** What a cursor holds: the hotel, the filters and where the page ended (check-in date, id). */
interface CursorState extends ListCursorState {
  hotel: string;
}

function isCursorState(value: unknown): value is CursorState {
  return (
    isListCursorState(value, FILTER_NAMES, [isCalendarDate, () => true]) &&
    typeof (value as CursorState).hotel === 'string'
  );
}

function filtersOf(query: ReservationListQuery): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const name of FILTER_NAMES) {
    const value = query[name];
    if (value === undefined) continue;
    filters[name] = name === 'q' ? foldSearchText(value.trim()) : value;
  }
  return filters;
}

/** `from ≤ to` and at most 366 dates, for each range given with both ends. */
function rangeProblems(filters: Record<string, string>): ProblemDetailEntry[] {
  const problems: ProblemDetailEntry[] = [];
  for (const [from, to] of [
    ['arrivalFrom', 'arrivalTo'],
    ['departureFrom', 'departureTo'],
  ] as const) {
    const start = filters[from];
    const end = filters[to];
    if (start === undefined || end === undefined) continue;
    const days = nightsBetween(start, end) + 1;
    if (days < 1) problems.push({ path: `/query/${to}`, message: `must not be before ${from}` });
    else if (days > MAX_RANGE_DAYS)
      problems.push({ path: `/query/${to}`, message: `must be at most ${MAX_RANGE_DAYS} days from ${from}` });
  }
  return problems;
}

type ListContext = Pick<AppContext, 'db' | 'catalog' | 'operatorKeyHasher'>;

/** The signed cursors of this list (the one codec helper of `list-cursor.ts`). */
const cursorsOf = (ctx: ListContext): CursorCodec<CursorState> =>
  listCursorCodec(ctx.operatorKeyHasher, 'operator-reservation-list', isCursorState);

/**
 * A page of the hotel's reservations for `actor` (API.md 7.2): filtered, by check-in date then
 * code, after the signed cursor's position; and the cursor of the next page if there is one.
 */
export async function listReservations(
  ctx: ListContext,
  actor: Principal,
  hotel: string,
  query: ReservationListQuery,
): Promise<{ rows: ReservationRow[]; nextCursor: string | null }> {
  requireVisibleHotel(actor, hotel, ctx.catalog.get(hotel) !== undefined);
  const cursors = cursorsOf(ctx);
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  const problems: ProblemDetailEntry[] = [];
  if (limit < 1 || limit > MAX_LIMIT)
    problems.push({ path: '/query/limit', message: `must be from 1 to ${MAX_LIMIT}` });

  let filters = filtersOf(query);
  let after: ListPosition | null = null;
  if (query.cursor !== undefined) {
    const state = cursors.decode(query.cursor, '/query/cursor');
    const differs = Object.entries(filters).filter(([name, value]) => state.filters[name] !== value);
    if (state.hotel !== hotel || differs.length > 0) {
      problems.push({
        path: '/query/cursor',
        message: 'belongs to another query: repeat the same hotel and filters, or leave the filters out',
      });
    }
    filters = state.filters;
    after = { checkIn: state.after[0], code: state.after[1] };
  }
  problems.push(...rangeProblems(filters));
  if (problems.length > 0) throw validationProblem(problems);

  // One more than asked tells whether another page exists without a second query.
  const rows = await reservationListRepository.page(
    ctx.db,
    { hotelId: hotel, ...(filters as Filters) },
    after,
    limit + 1,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor:
      rows.length > limit && last
        ? cursors.encode({ v: 1, hotel, filters, after: [last.checkIn, last.code] })
        : null,
  };
}
