import { hashSecret } from '../infra/crypto/tokens.ts';
import type { Database } from '../infra/db/database.ts';
import { type ReachedSession, checkinRepository as repo } from './checkin.repository.ts';

/** Sessions a process remembers (a few KiB each), least recently used forgotten first. */
const CAPACITY = 2_000;

/** What a reached session is read from. */
const TABLES = ['checkin_sessions', 'checkin_steps', 'reservations'] as const;

interface Entry {
  changeCount: number;
  reached: ReachedSession;
}

/** Per database (its `identity`), so two apps of one process (tests) never share sessions. */
const caches = new WeakMap<object, Map<string, Entry>>();

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
 * polling an unchanged session costs no statement, and nothing stale is ever answered. On PostgreSQL other processes write: every
 * read goes to the database.
 */
export async function reachStoredSession(
  db: Database,
  id: string,
  hotelIds: readonly string[] | null,
): Promise<ReachedSession | null> {
  if (hotelIds !== null && hotelIds.length === 0) return null;
  const changeCount = db.changeCount?.(TABLES);
  if (changeCount === undefined) return repo.reachByTokenHash(db, hashSecret(id), hotelIds);
  let cache = caches.get(db.identity);
  if (!cache) {
    cache = new Map();
    caches.set(db.identity, cache);
  }
  const hit = cache.get(id);
  if (hit && hit.changeCount === changeCount) {
    // Most recently used last: Map iteration order is insertion order.
    cache.delete(id);
    cache.set(id, hit);
    return hit.reached;
  }
  const reached = await repo.reachByTokenHash(db, hashSecret(id), hotelIds);
  cache.delete(id);
  if (!reached) return null;
  // Shared by every request that reads it: frozen, so none can change what another is answered.
  cache.set(id, { changeCount, reached: deepFreeze(reached) });
  if (cache.size > CAPACITY) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return reached;
}

/** Answers worked out from a session read from memory: with its rows, forgotten with them. */
const answers = new WeakMap<object, { key: string; hotel: object; answer: unknown }>();

/**
 * The answer given before for this very read of a session (the same rows from memory, so the same
 * session version), made with the same signing key and the same catalogue entry of its hotel.
 * Never for a read from the database: those rows are new objects every time.
 */
export function rememberedAnswer<T>(state: { session: object; hotel: object }, key: string): T | undefined {
  const found = answers.get(state.session);
  return found && found.key === key && found.hotel === state.hotel ? (found.answer as T) : undefined;
}

/** Keeps `answer` with a session read from memory (frozen: every later request shares it). */
export function rememberAnswer<T>(state: { session: object; hotel: object }, key: string, answer: T): T {
  if (!Object.isFrozen(state.session)) return answer;
  answers.set(state.session, { key, hotel: state.hotel, answer: deepFreeze(answer) });
  return answer;
}
