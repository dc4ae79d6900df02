import type { Database } from '../../infra/db/database.ts';
import { invalid } from '../../infra/http/problems.ts';
import { type AuditEntry, auditRepository } from '../audit.repository.ts';
import { type CursorCodec, createCursorCodec } from '../list-cursor.ts';
import type { Principal } from '../scopes.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

const isPosition = (value: unknown): value is [string, string] => {
  if (!Array.isArray(value) || value.length !== 2) return false;
  const [at, id] = value as unknown[];
  return (
    typeof at === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at) &&
    !Number.isNaN(Date.parse(at)) &&
    typeof id === 'string' &&
    /^aud_[0-9a-z]{1,40}$/.test(id)
  );
};

type AuditContext = { db: Database; operatorKeyHasher: (label: string) => Buffer };

/**
 * The cursors, signed by the one codec of `list-cursor.ts` (the last entry's exact time and id);
 * the HMAC key derived like the reservation list's, under a label of its own; one codec per app.
 */
const codecs = new WeakMap<AuditContext['operatorKeyHasher'], CursorCodec<[string, string]>>();
function cursorsOf(ctx: AuditContext): CursorCodec<[string, string]> {
  let codec = codecs.get(ctx.operatorKeyHasher);
  if (!codec) {
    codec = createCursorCodec(
      ctx.operatorKeyHasher('innkeep/operator-audit-log-cursor/v1'),
      'audit-log',
      isPosition,
    );
    codecs.set(ctx.operatorKeyHasher, codec);
  }
  return codec;
}

/**
 * One page of the audit log the actor sees (API.md 7.3), newest first: the entries whose hotels
 * all lie within the actor's own, and the cursor of the next page if there is one.
 */
export async function readAuditLog(
  ctx: AuditContext,
  actor: Principal,
  query: { limit?: number | string; cursor?: string },
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  if (limit < 1 || limit > MAX_LIMIT) throw invalid('/query/limit', `must be from 1 to ${MAX_LIMIT}`);
  const cursors = cursorsOf(ctx);
  const position = query.cursor === undefined ? null : cursors.decode(query.cursor, '/query/cursor');
  const from = position ? { at: position[0], id: position[1] } : null;
  // One more than asked tells whether another page exists without a second query.
  const page = await auditRepository.page(ctx.db, { within: actor.hotelIds, from, limit: limit + 1 });
  const entries = page.slice(0, limit);
  const last = entries.at(-1);
  return {
    entries,
    nextCursor: page.length > limit && last ? cursors.encode([last.position.at, last.position.id]) : null,
  };
}
