import type { Executor } from '../../infra/db/database.ts';
import { checkinRepository as repo } from '../checkin.repository.ts';
import { stepFacts } from '../rules/reservation-facts.ts';
import { allStepsDone, reconcileSteps } from '../rules/step-machine.ts';
import { sessionStatus } from '../session-view.ts';
import { completeCheckin } from './complete-checkin.ts';
import type { SessionState } from './session-state.ts';

/** The steps of an open session would change with the reservation as it is now, or it is done. */
export function needsSettling(state: SessionState): boolean {
  if (sessionStatus(state.session, state.reservation) !== 'open') return false;
  const steps = reconcileSteps(state.steps, stepFacts(state.reservation));
  return steps.some((s, i) => s.status !== state.steps[i]?.status) || allStepsDone(steps);
}

/**
 * Applies automatic skips to an open session from the reservation as it is now (its balance or
 * party may have changed) and completes the session when nothing required is left. Runs inside
 * the caller's transaction, with the reservation and session locked.
 */
export async function settle(tx: Executor, state: SessionState, now: Date): Promise<SessionState> {
  if (!needsSettling(state)) return state;
  const reconciled = reconcileSteps(state.steps, stepFacts(state.reservation));
  const steps = state.steps.map((s, i) => ({ ...s, status: reconciled[i]?.status ?? s.status }));
  for (const [i, step] of steps.entries()) {
    if (step.status !== state.steps[i]?.status)
      await repo.setStepStatus(tx, state.reservation.hotelId, state.session.id, step.name, step.status);
  }
  const done = allStepsDone(steps);
  const session = await repo.touchSession(tx, state.reservation.hotelId, state.session.id, now, done);
  await completeCheckin(tx, state.reservation, steps, done);
  return { ...state, session, steps };
}
