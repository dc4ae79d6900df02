import type { Database } from '../../infra/db/database.ts';
import { AppError, type ProblemDetailEntry, validationProblem } from '../../infra/http/problems.ts';
import type { AuditQuery } from '../audit.schemas.ts';
import { type AuditEntry, type AuditFilter, auditEntriesRepository } from '../audit-entries.repository.ts';
import { isListCursorState, type ListCursorState, listCursorCodec } from '../list-cursor.ts';
import { type Principal, seesHotel } from '../scopes.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const FILTER_NAMES = ['hotelId', 'actorId', 'action', 'from', 'to'] as const;

/** Where an audit page ended: the entry's exact time (microseconds) and its id. */
const AFTER_AT = (at: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at);
const AFTER_ID = (id: string) => /^aud_[0-9a-z]{1,40}$/.test(id);

function isCursorState(value: unknown): value is ListCursorState {
  return isListCursorState(value, FILTER_NAMES, [AFTER_AT, AFTER_ID]);
}

type AuditContext = { db: Database; operatorKeyHasher: (label: string) => Buffer };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A bound of the range: an instant, or a UTC date (its start for `from`, the next day's for `to`). */
function boundOf(value: string | undefined, end: boolean, path: string, problems: ProblemDetailEntry[]) {
  if (value === undefined) return null;
  const day = DAY.test(value);
  const time = Date.parse(day ? `${value}T00:00:00Z` : value);
  const valid = !Number.isNaN(time) && (!day || new Date(time).toISOString().slice(0, 10) === value);
  if (!valid) {
    problems.push({ path, message: 'must be a date (YYYY-MM-DD) or an RFC 3339 instant' });
    return null;
  }
  // `to` is inclusive: to the end of its day, or of its millisecond.
  return new Date(end ? time + (day ? 24 * 3600 * 1000 : 1) : time);
}

/**
 * One page of the audit trail the caller sees (API.md 12), newest first: entries whose hotels all
 * lie within the caller's, filtered by hotel, actor, action and time; and the next page's cursor.
 */
export async function readAuditLog(
  ctx: AuditContext,
  caller: Principal,
  query: AuditQuery,
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const cursors = listCursorCodec(ctx.operatorKeyHasher, 'operator-audit-log', isCursorState);
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  const problems: ProblemDetailEntry[] = [];
  if (limit < 1 || limit > MAX_LIMIT)
    problems.push({ path: '/query/limit', message: `must be from 1 to ${MAX_LIMIT}` });
  let filters: Record<string, string> = {};
  for (const name of FILTER_NAMES) {
    const value = query[name];
    if (value !== undefined) filters[name] = value;
  }
  let after: { at: string; id: string } | null = null;
  if (query.cursor !== undefined) {
    const state = cursors.decode(query.cursor, '/query/cursor');
    if (Object.entries(filters).some(([name, value]) => state.filters[name] !== value)) {
      problems.push({
        path: '/query/cursor',
        message: 'belongs to another query: repeat the same filters, or leave them out',
      });
    }
    filters = state.filters;
    after = { at: state.after[0], id: state.after[1] };
  }
  const from = boundOf(filters.from, false, '/query/from', problems);
  const to = boundOf(filters.to, true, '/query/to', problems);
  if (from && to && from >= to) problems.push({ path: '/query/to', message: 'must not be before from' });
  if (problems.length > 0) throw validationProblem(problems);
  const hotelId = filters.hotelId ?? null;
  if (hotelId !== null && !seesHotel(caller, hotelId)) {
    throw new AppError('not_found', `No hotel has the id "${hotelId}".`);
  }
  const filter: AuditFilter = {
    within: caller.hotelIds,
    hotelId,
    actorId: filters.actorId ?? null,
    action: filters.action ?? null,
    from,
    to,
  };
  // One more than asked tells whether another page exists without a second query.
  const page = await auditEntriesRepository.page(ctx.db, filter, { from: after, limit: limit + 1 });
  const entries = page.slice(0, limit);
  const last = entries.at(-1);
  return {
    entries,
    nextCursor:
      page.length > limit && last
        ? cursors.encode({ v: 1, filters, after: [last.position.at, last.position.id] })
        : null,
  };
}
