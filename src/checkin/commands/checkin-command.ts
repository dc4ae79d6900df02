import { toRfc3339, zonedInstant } from '../../calendar/dates.ts';
import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { tellGuestCheckinCompleted } from '../../messages/outbox.ts';
import type { PaymentDeps } from '../../payments/charge.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { checkinRepository as repo, type SessionRow, type StepRow } from '../checkin.repository.ts';
import type { SignedSession } from '../checkin.schemas.ts';
import { recordCheckinEvent } from '../checkin-events.ts';
import { stepFacts } from '../reservation-facts.ts';
import { buildSessionView, sessionStatus } from '../session-view.ts';
import { allStepsDone, reconcileSteps } from '../step-machine.ts';

/** What every check-in command needs: the app's parts and the request's log. */
export type CheckinContext = Pick<
  AppContext,
  'db' | 'catalog' | 'clock' | 'config' | 'payments' | 'encryptor' | 'signer'
> & { log: PaymentDeps['log'] };

/** A session as the commands work on it: its rows, the reservation and hotel, when it expires. */
export interface SessionState {
  /** The public id (`cks_…`), the guest's bearer secret. */
  id: string;
  session: SessionRow;
  steps: StepRow[];
  reservation: ReservationRow;
  hotel: Hotel;
  expiresAt: Date;
}

export function hotelOf(ctx: CheckinContext, reservation: ReservationRow): Hotel {
  const hotel = ctx.catalog.get(reservation.hotelId);
  if (!hotel)
    throw new Error(`hotel ${reservation.hotelId} of reservation ${reservation.code} is not loaded`);
  return hotel;
}

/** A session expires at check-out: the check-out date at the hotel's check-out time, in its time zone. */
export function expiryOf(reservation: ReservationRow, hotel: Hotel): Date {
  return zonedInstant(reservation.checkOut, hotel.checkOutTime, hotel.timezone);
}

export function assertNotExpired(ctx: CheckinContext, expiresAt: Date): void {
  if (ctx.clock.now() < expiresAt) return;
  throw new AppError(
    'session_expired',
    `This check-in session expired at ${toRfc3339(expiresAt)} (check-out). Please contact the hotel.`,
  );
}

export function stateOf(
  ctx: CheckinContext,
  id: string,
  stored: { session: SessionRow; steps: StepRow[] },
  reservation: ReservationRow,
): SessionState {
  const hotel = hotelOf(ctx, reservation);
  return { id, ...stored, reservation, hotel, expiresAt: expiryOf(reservation, hotel) };
}

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
      await repo.setStepStatus(tx, state.session.id, step.name, step.status);
  }
  const done = allStepsDone(steps);
  const session = await repo.touchSession(tx, state.session.id, now, done);
  await completeCheckin(tx, state.reservation, steps, done);
  return { ...state, session, steps };
}

/**
 * With the last step done: the reservation's check-in completes, `checkin.completed` is raised and
 * the guest's `checkin_completed` message queued (names only: identity data stays out of mail).
 */
export async function completeCheckin(
  tx: Executor,
  reservation: ReservationRow,
  steps: ReadonlyArray<Pick<StepRow, 'name' | 'data'>>,
  done: boolean,
) {
  if (!done) return;
  await reservations.setCheckinStatus(tx, reservation.id, 'completed');
  await recordCheckinEvent(tx, 'checkin.completed', reservation);
  await tellGuestCheckinCompleted(tx, { ...reservation, checkinStatus: 'completed' }, guestNames(steps));
}

/** The names of the guests a check-in recorded: the guest's details, then the companions. */
function guestNames(steps: ReadonlyArray<Pick<StepRow, 'name' | 'data'>>) {
  const name = (g: unknown) => {
    const { firstName, lastName } = (g ?? {}) as { firstName?: unknown; lastName?: unknown };
    return typeof firstName === 'string' && typeof lastName === 'string' ? [{ firstName, lastName }] : [];
  };
  const details = steps.find((s) => s.name === 'guest_details')?.data;
  const companions = steps.find((s) => s.name === 'companions')?.data?.guests;
  return [...name(details), ...(Array.isArray(companions) ? companions.flatMap(name) : [])];
}
