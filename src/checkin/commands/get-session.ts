import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import { checkinRepository as repo } from '../checkin.repository.ts';
import type { SignedSession } from '../checkin.schemas.ts';
import { rememberAnswer, rememberedAnswer } from '../session-cache.ts';
import type { CheckinContext } from './checkin-context.ts';
import { reachSession } from './reach-session.ts';
import { stateOf } from './session-state.ts';
import { needsSettling, settle } from './settle-session.ts';
import { signSession } from './sign-session.ts';

/**
 * The session and its signature (API.md 3.2). An open session whose reservation changed (a party
 * of one now, nothing due any more) is settled first, in a transaction of its own. A session held
 * in memory and unchanged since (session-cache.ts: the embedded engine's change count, or on
 * PostgreSQL its rows' version) answers what it answered before, with the same signing key: the
 * same session version, the same JWS (`signOnce` would give it again).
 */
export async function getSession(ctx: CheckinContext, id: string): Promise<SignedSession> {
  let state = await reachSession(ctx, id);
  if (needsSettling(state)) {
    const { session, reservation } = state;
    state = await ctx.db.transaction(async (tx) => {
      const locked = await reservations.findById(tx, reservation.id, {
        forUpdate: true,
        hotelId: reservation.hotelId,
      });
      const fresh = stateOf(ctx, id, await repo.lockSession(tx, reservation.hotelId, session.id), locked);
      return settle(tx, fresh, ctx.clock.now());
    });
    return signSession(ctx, state);
  }
  const key = ctx.signer.currentKeyId;
  return (
    rememberedAnswer<SignedSession>(state, key) ?? rememberAnswer(state, key, await signSession(ctx, state))
  );
}
