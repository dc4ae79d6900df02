import { hashSecret } from '../infra/crypto/tokens.ts';
import type { Database } from '../infra/db/database.ts';
import { groupedStatements } from '../infra/db/grouped-statements.ts';
import { type ReachedSession, reachedSessionRepository as repo } from './reached-session.repository.ts';

/** Sessions a process remembers (a few KiB each), least recently used forgotten first. */
const CAPACITY = 2_000;

/** What a reached session is read from. */
const TABLES = ['checkin_sessions', 'checkin_steps', 'reservations'] as const;

interface Entry {
  /** Embedded engine: the database's change count when read. PostgreSQL: the rows' version. */
  stamp: number | string;
  reached: ReachedSession;
}

/** Per database (its `identity`), so two apps of one process (tests) never share sessions. */
const caches = new WeakMap<object, Map<string, Entry>>();

function cacheOf(db: Database): Map<string, Entry> {
  let cache = caches.get(db.identity);
  if (!cache) {
    cache = new Map();
    caches.set(db.identity, cache);
  }
  return cache;
}

/** Most recently used last: Map iteration order is insertion order. */
function touch(cache: Map<string, Entry>, id: string, entry: Entry): ReachedSession {
  cache.delete(id);
  cache.set(id, entry);
  return entry.reached;
}

/** Keeps a session just read (frozen: every request that reads it shares it). */
function keep(cache: Map<string, Entry>, id: string, stamp: number | string, reached: ReachedSession) {
  cache.delete(id);
  cache.set(id, { stamp, reached: deepFreeze(reached) });
  if (cache.size > CAPACITY) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return reached;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !ArrayBuffer.isView(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * The session a guest's id names, with its steps and reservation (one statement), or null; among
 * `hotelIds`' sessions when the id carries its hotel's tag (none: no such session).
 *
 * On the embedded engine this process makes every write, and the database's `changeCount` moves
 * around each one to the sessions, their steps or reservations; a session read while it did not
 * move is answered again from memory until it does (any such write, once it has ended). So a guest
 * polling an unchanged session costs no statement, and nothing stale is ever answered.
 *
 * On PostgreSQL other processes write too, so every read asks the database, but a session this
 * process holds costs one narrow row: its rows' version (`sessionVersion`, the `xmin` of the
 * session, its reservation and steps, which any committed write changes, whoever made it). The
 * same version answers the session held (and the answer made from it); another reads it afresh.
 * A read after a write through any process sees it. Only for ids naming one hotel (one shard).
 * Reads of one hotel's sessions that come while its version statement is under way share the next
 * one (`grouped-statements.ts`): under polling load one statement answers many reads.
 */
export async function reachStoredSession(
  db: Database,
  id: string,
  hotelIds: readonly string[] | null,
): Promise<ReachedSession | null> {
  if (hotelIds !== null && hotelIds.length === 0) return null;
  const changeCount = db.changeCount?.(TABLES);
  if (changeCount === undefined) {
    const hotelId = hotelIds?.length === 1 ? hotelIds[0] : undefined;
    return hotelId === undefined
      ? repo.reachByTokenHash(db, hashSecret(id), hotelIds)
      : reachVersioned(db, id, hotelId);
  }
  const cache = cacheOf(db);
  const hit = cache.get(id);
  if (hit && hit.stamp === changeCount) return touch(cache, id, hit);
  const reached = await repo.reachByTokenHash(db, hashSecret(id), hotelIds);
  cache.delete(id);
  return reached ? keep(cache, id, changeCount, reached) : null;
}

/**
 * A held session's version, read with the other reads of its hotel's sessions waiting meanwhile
 * (at most 64 a statement): each of them sent after the read was asked, so it sees every commit
 * made before, as a statement of its own would.
 */
const sessionVersion = groupedStatements<Buffer, string | null>(
  (db, hotelId, tokenHashes) => repo.sessionVersions(db, hotelId, tokenHashes),
  64,
);

/** PostgreSQL: the session held if its rows' version is still the database's, else read afresh. */
async function reachVersioned(db: Database, id: string, hotelId: string): Promise<ReachedSession | null> {
  const cache = cacheOf(db);
  const tokenHash = hashSecret(id);
  const hit = cache.get(id);
  // The id names its hotel by its tag; the held rows are that hotel's.
  if (hit && hit.reached.reservation.hotelId === hotelId) {
    const version = await sessionVersion(db, hotelId, tokenHash);
    if (version === hit.stamp) return touch(cache, id, hit);
    if (version === null) {
      cache.delete(id);
      return null;
    }
  }
  const found = await repo.reachVersioned(db, tokenHash, hotelId);
  cache.delete(id);
  return found ? keep(cache, id, found.version, found.reached) : null;
}

/** Answers worked out from a session held in memory: with its rows, forgotten with them. */
const answers = new WeakMap<object, { key: string; hotel: object; answer: unknown }>();

/**
 * The answer given before for this very read of a session (the same rows from memory, so the same
 * session version), made with the same signing key and the same catalogue entry of its hotel.
 * A session read anew from the database (another version, or a session not held) has new row
 * objects, so it never finds an older version's answer.
 */
export function rememberedAnswer<T>(state: { session: object; hotel: object }, key: string): T | undefined {
  const found = answers.get(state.session);
  return found && found.key === key && found.hotel === state.hotel ? (found.answer as T) : undefined;
}

/** Keeps `answer` with a session held in memory (frozen: every later request shares it). */
export function rememberAnswer<T>(state: { session: object; hotel: object }, key: string, answer: T): T {
  if (!Object.isFrozen(state.session)) return answer;
  answers.set(state.session, { key, hotel: state.hotel, answer: deepFreeze(answer) });
  return answer;
}

/**
 * For tests only (no caller in src/): what this process holds of `db`'s sessions, most recently
 * used last: each session's rows as read and the answer kept with them, if any. Lets a test check
 * what per-process memory keeps of a guest's data (test/checkin/session-cache.test.ts).
 */
export function heldSessionsForTests(db: Database): Array<{ reached: ReachedSession; answer: unknown }> {
  return [...cacheOf(db).values()].map(({ reached }) => ({
    reached,
    answer: answers.get(reached.session)?.answer,
  }));
}
