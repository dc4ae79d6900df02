import { AppError } from '../../infra/http/problems.ts';
import { reachStoredSession } from '../session-cache.ts';
import { sessionHotels } from '../session-id.ts';
import type { CheckinContext } from './checkin-context.ts';
import { assertNotExpired, type SessionState, stateOf } from './session-state.ts';

/**
 * The session a request names, read (not locked) with its reservation in one statement, and still
 * reachable: the proof a step is taken with. Unknown ids are `not_found` and expired sessions
 * `session_expired`, for any request.
 */
export async function reachSession(ctx: CheckinContext, id: string): Promise<SessionState> {
  const stored = id.startsWith('cks_')
    ? await reachStoredSession(ctx.db, id, sessionHotels(ctx.catalog, id))
    : null;
  if (!stored) throw new AppError('not_found', 'No check-in session has this id.');
  const state = stateOf(ctx, id, stored, stored.reservation);
  assertNotExpired(ctx, state.expiresAt);
  return state;
}
