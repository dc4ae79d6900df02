import { hotelToday } from '../../dates/dates.ts';
import { finishWrite, type WriteOptions } from '../../infra/db/database.ts';
import { AppError, type ProblemDetailEntry, validationProblem } from '../../infra/http/problems.ts';
import { domainMetrics } from '../../infra/metrics/domain-metrics.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import { checkinRepository as repo } from '../checkin.repository.ts';
import type { SignedSession, StepSubmission } from '../checkin.schemas.ts';
import { partySize } from '../rules/reservation-facts.ts';
import { allStepsDone, completeStep, type Refusal, refuseSubmission } from '../rules/step-machine.ts';
import { stepContext } from '../session-secrets.ts';
import { sessionStatus } from '../session-view.ts';
import { acceptStepData, schemaErrors } from '../step-data.ts';
import { type StepName, stepNamed } from '../steps/index.ts';
import type { CheckinContext } from './checkin-context.ts';
import { completeCheckin } from './complete-checkin.ts';
import { assertNotExpired, type SessionState, stateOf } from './session-state.ts';
import { settle } from './settle-session.ts';
import { signSession } from './sign-session.ts';

/**
 * One step (API.md 3.3), in one transaction, on the session the request reached (`reachSession`,
 * its proof): the refusals of the state machine first, then the data's schema and the step's
 * rules (invalid data changes nothing), then the step's side effect (the payment step charges the
 * balance due), the step is stored and, with the last one, the session completes.
 */
export async function submitStep(
  ctx: CheckinContext,
  submission: StepSubmission,
  reached: SessionState,
  options: WriteOptions<SignedSession> = {},
): Promise<SignedSession> {
  const name = submission.step;
  const step = stepNamed(name);
  const { state, signed } = await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    // Locked in the order every check-in write takes: the reservation, then its session.
    const reservation = await reservations.findById(tx, reached.reservation.id, {
      forUpdate: true,
      hotelId: reached.reservation.hotelId,
    });
    let current = stateOf(
      ctx,
      reached.id,
      await repo.lockSession(tx, reached.reservation.hotelId, reached.session.id),
      reservation,
    );
    assertNotExpired(ctx, current.expiresAt);
    current = await settle(tx, current, now);

    const refusal = refuseSubmission(sessionStatus(current.session, reservation), current.steps, name);
    if (refusal) throw refusalError(refusal, name, reservation.code);
    const shapeErrors = schemaErrors(name, submission.data);
    if (shapeErrors.length > 0) throw validationError(shapeErrors);
    const checked = acceptStepData(name, submission.data, {
      partySize: partySize(reservation),
      checkOut: reservation.checkOut,
      today: hotelToday(current.hotel.timezone, now),
      recognisesPaymentToken: (token) => ctx.payments.recognises(token),
    });
    if (!checked.ok) throw validationError(checked.errors);

    const { accepted } = checked;
    const previous = current.steps.find((s) => s.name === name)?.data ?? null;
    const effect = step.effect
      ? await step.effect(submission.data, accepted, { tx, deps: ctx, reservation, previous, now })
      : { view: accepted.view, reservation };
    const sessionId = current.session.id;
    const steps = completeStep(current.steps, name);
    const done = allStepsDone(steps);
    const saved = await repo.saveStep(tx, reservation.hotelId, sessionId, name, {
      data: effect.view,
      secret: accepted.secret
        ? ctx.encryptor.encrypt(JSON.stringify(accepted.secret), stepContext(sessionId, name, 'secret'))
        : null,
      attachment: accepted.attachment
        ? ctx.encryptor.encrypt(accepted.attachment, stepContext(sessionId, name, 'attachment'))
        : null,
      now,
      completed: done,
    });
    // The reservation after the step's effect (the payment step's charge), as the event shows it.
    await completeCheckin(
      tx,
      effect.reservation,
      current.steps.map((s) => (s.name === name ? { ...s, data: saved.data } : s)),
      done,
    );
    const after: SessionState = {
      ...current,
      reservation: effect.reservation,
      session: saved.session,
      steps: current.steps.map((s) =>
        s.name === name ? { ...s, status: 'completed', data: saved.data } : s,
      ),
    };
    // Signed inside the transaction, so the answer can be stored with the step it reports.
    return { state: after, signed: await finishWrite(tx, await signSession(ctx, after, tx), options) };
  });
  // Counted after the commit (a retried transaction must not count twice); a step on a
  // completed session is refused, so a completed state here was completed by this step.
  if (state.session.status === 'completed') domainMetrics.checkinCompleted(state.hotel.id);
  return signed;
}

function validationError(errors: ProblemDetailEntry[]): AppError {
  return validationProblem(errors.map((e) => ({ path: e.path ?? '/', message: e.message })));
}

function refusalError(refusal: Refusal, step: StepName, code: string): AppError {
  switch (refusal) {
    case 'reservation_cancelled':
      return new AppError(
        'reservation_cancelled',
        `Reservation ${code} was cancelled; its check-in is closed.`,
      );
    case 'session_completed':
      return new AppError(
        'session_completed',
        'This check-in is already completed; steps can no longer change.',
      );
    case 'step_not_applicable':
      return new AppError('step_not_applicable', `The ${step} step is skipped for this reservation.`);
    case 'step_out_of_order':
      return new AppError('step_out_of_order', `Complete the earlier steps before ${step}; see nextStep.`);
  }
}
