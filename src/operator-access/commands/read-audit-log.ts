import type { Database } from '../../infra/db/database.ts';
import { invalid } from '../../infra/http/problems.ts';
import { type AuditEntry, type AuditPosition, auditRepository } from '../audit.repository.ts';
import type { Principal } from '../scopes.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/** The cursor is opaque to clients: base64url of the last entry's exact time and id. */
function encodeCursor(position: AuditPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

/** A cursor that is not one this endpoint issued is a `400`, never a 500. */
function decodeCursor(cursor: string): AuditPosition {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof at === 'string' &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at) &&
      !Number.isNaN(Date.parse(at)) &&
      typeof id === 'string' &&
      /^aud_[0-9a-z]{1,40}$/.test(id)
    ) {
      return { at, id };
    }
  } catch {
    // falls through to the 400 below
  }
  throw invalid('/query/cursor', 'is not a cursor this endpoint issued');
}

/**
 * One page of the audit log the actor sees (API.md 7.3), newest first: the entries whose hotels
 * all lie within the actor's own, and the cursor of the next page if there is one.
 */
export async function readAuditLog(
  db: Database,
  actor: Principal,
  query: { limit?: number | string; cursor?: string },
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  if (limit < 1 || limit > MAX_LIMIT) throw invalid('/query/limit', `must be from 1 to ${MAX_LIMIT}`);
  const from = query.cursor === undefined ? null : decodeCursor(query.cursor);
  // One more than asked tells whether another page exists without a second query.
  const page = await auditRepository.page(db, { within: actor.hotelIds, from, limit: limit + 1 });
  const entries = page.slice(0, limit);
  const last = entries.at(-1);
  return { entries, nextCursor: page.length > limit && last ? encodeCursor(last.position) : null };
}
