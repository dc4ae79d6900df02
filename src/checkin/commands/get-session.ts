import { AppError } from '../../infra/http/problems.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import { checkinRepository as repo } from '../checkin.repository.ts';
import type { SignedSession } from '../checkin.schemas.ts';
import { reachStoredSession, rememberAnswer, rememberedAnswer } from '../session-cache.ts';
import {
  assertNotExpired,
  type CheckinContext,
  needsSettling,
  type SessionState,
  settle,
  signSession,
  stateOf,
} from './checkin-command.ts';

/**
 * The session a request names, read (not locked) with its reservation in one statement, and still
 * reachable: the proof a step is taken with. Unknown ids are `not_found` and expired sessions
 * `session_expired`, for any request.
 */
export async function reachSession(ctx: CheckinContext, id: string): Promise<SessionState> {
  const stored = id.startsWith('cks_') ? await reachStoredSession(ctx.db, id) : null;
  if (!stored) throw new AppError('not_found', 'No check-in session has this id.');
  const state = stateOf(ctx, id, stored, stored.reservation);
  assertNotExpired(ctx, state.expiresAt);
  return state;
}

/**
 * The session and its signature (API.md 3.2). An open session whose reservation changed (a party
 * of one now, nothing due any more) is settled first, in a transaction of its own. A session read
 * from memory (embedded engine, unchanged since) answers what it answered before, with the same
 * signing key: the same session version, the same JWS (`signOnce` would give it again).
 */
export async function getSession(ctx: CheckinContext, id: string): Promise<SignedSession> {
  let state = await reachSession(ctx, id);
  if (needsSettling(state)) {
    const { session, reservation } = state;
    state = await ctx.db.transaction(async (tx) => {
      const locked = await reservations.findById(tx, reservation.id, { forUpdate: true });
      const fresh = stateOf(ctx, id, await repo.lockSession(tx, session.id), locked);
      return settle(tx, fresh, ctx.clock.now());
    });
    return signSession(ctx, state);
  }
  const key = ctx.signer.currentKeyId;
  return (
    rememberedAnswer<SignedSession>(state, key) ?? rememberAnswer(state, key, await signSession(ctx, state))
  );
}
