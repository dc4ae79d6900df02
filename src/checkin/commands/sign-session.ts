import type { Executor } from '../../infra/db/database.ts';
import type { SignedSession } from '../checkin.schemas.ts';
import { buildSessionView } from '../session-view.ts';
import type { CheckinContext } from './checkin-context.ts';
import type { SessionState } from './session-state.ts';

/**
 * The session and its signature (API.md 3.2). The payload's `iat` is the time of this version of
 * the session (its last change, or its reservation's), so an unchanged session keeps one JWS,
 * signed once (`signer.signOnce`). `tx`: the write's transaction, when the answer is that write's.
 */
export async function signSession(
  ctx: CheckinContext,
  state: SessionState,
  tx?: Executor,
): Promise<SignedSession> {
  const session = buildSessionView(state);
  const changedAt = Math.max(state.session.updated_at.getTime(), state.reservation.updatedAt.getTime());
  const payload = {
    iss: ctx.config.publicBaseUrl,
    sub: state.id,
    iat: Math.floor(changedAt / 1000),
    exp: Math.floor(state.expiresAt.getTime() / 1000),
    session,
  };
  const signature = await ctx.signer.signOnce(`checkin-session:${state.session.id}`, payload, tx);
  return { session, signature };
}
