import { hotelToday, toRfc3339, zonedInstant } from '../calendar/dates.ts';
import type { Hotel } from '../catalog/catalog.schema.ts';
import type { AppContext } from '../context.ts';
import { recordEvent } from '../events/record-event.ts';
import { hashSecret, normalizeConfirmationCode, randomToken, sameHash } from '../infra/crypto/tokens.ts';
import { type Executor, finishWrite, type WriteOptions } from '../infra/db/database.ts';
import { AppError, validationProblem } from '../infra/http/problems.ts';
import { windowLimitExceeded } from '../infra/http/rate-limit-headers.ts';
import { domainMetrics } from '../infra/metrics/domain-metrics.ts';
import { chargeWithinTransaction, type PaymentDeps } from '../payments/charge.ts';
import { reservationRepository as reservations } from '../reservations/reservation.repository.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import { operatorReservationView } from '../reservations/reservation.view.ts';
import { checkinRepository as repo, type SessionRow, type StepRow } from './checkin.repository.ts';
import type { SessionView, SignedSession, StepSubmission } from './checkin.schemas.ts';
import { recordCheckinEvent } from './checkin-events.ts';
import { sameLastName } from './proof.ts';
import { balanceDue, buildSessionView, partySize, sessionStatus } from './session-view.ts';
import { acceptStepData, schemaErrors } from './step-data.ts';
import {
  allStepsDone,
  completeStep,
  initialSteps,
  reconcileSteps,
  refuseSubmission,
  type StepFacts,
  type StepName,
} from './steps.ts';

/** How a caller proves a reservation: the booker's last name, or the reservation's access token. */
export interface ReservationProof {
  reservationId: string;
  lastName?: string | undefined;
  accessToken?: string | undefined;
  /** The client address failed proofs are counted against. */
  clientAddress: string;
}

export interface OpenedSession {
  created: boolean;
  signed: SignedSession;
}

/** Session ids carry 160 random bits. */
const SESSION_ID_BYTES = 20;
const NOT_FOUND = 'No reservation matches this confirmation code and proof.';

const tokenContext = (reservationId: number) => `checkin-session-id:${reservationId}`;
/** The AAD of a step's ciphertexts: binds each to its session, step and column. */
export const stepContext = (sessionId: number, step: StepName, part: 'secret' | 'attachment') =>
  `checkin-step:${sessionId}:${step}:${part}`;

interface Loaded {
  session: SessionRow;
  reservation: ReservationRow;
  hotel: Hotel;
  steps: StepRow[];
  expiresAt: Date;
}

function facts(reservation: ReservationRow): StepFacts {
  return { partySize: partySize(reservation), balanceDue: balanceDue(reservation) };
}

function expired(expiresAt: Date): AppError {
  return new AppError(
    'session_expired',
    `This check-in session expired at ${toRfc3339(expiresAt)} (check-out). Please contact the hotel.`,
  );
}

/**
 * Self check-in (API.md 3): opening sessions, reading them signed, and taking steps. `log` hears of
 * a charge that could not be undone.
 */
export function checkinService(ctx: AppContext, log: PaymentDeps['log']) {
  const { db } = ctx;
  const paymentDeps: PaymentDeps = { payments: ctx.payments, log };

  function hotelOf(reservation: ReservationRow): Hotel {
    const hotel = ctx.catalog.get(reservation.hotelId);
    if (!hotel)
      throw new Error(`hotel ${reservation.hotelId} of reservation ${reservation.code} is not loaded`);
    return hotel;
  }

  /** The check-out date at the hotel's check-out time, in the hotel's time zone. */
  function expiryOf(reservation: ReservationRow, hotel: Hotel): Date {
    return zonedInstant(reservation.checkOut, hotel.checkOutTime, hotel.timezone);
  }

  async function load(ex: Executor, session: SessionRow, reservation?: ReservationRow): Promise<Loaded> {
    const r = reservation ?? (await reservations.findById(ex, session.reservation_id));
    const hotel = hotelOf(r);
    return {
      session,
      reservation: r,
      hotel,
      steps: await repo.steps(ex, session.id),
      expiresAt: expiryOf(r, hotel),
    };
  }

  /** `tx`: the write's transaction, when the signed session is that write's answer. */
  async function sign(id: string, state: Loaded, tx?: Executor): Promise<SignedSession> {
    const session: SessionView = buildSessionView({ id, ...state });
    const iat = Math.floor(ctx.clock.now().getTime() / 1000);
    const exp = Math.floor(state.expiresAt.getTime() / 1000);
    const signature = await ctx.signer.sign(
      { iss: ctx.config.publicBaseUrl, sub: id, iat, exp, session },
      tx,
    );
    return { session, signature };
  }

  /**
   * Applies automatic skips to an open session from the reservation as it is now (its balance or
   * party may have changed) and completes the session when nothing required is left. Runs inside
   * the caller's transaction, with the reservation and session locked.
   */
  async function settle(tx: Executor, state: Loaded, now: Date): Promise<Loaded> {
    if (sessionStatus(state.session, state.reservation) !== 'open') return state;
    const steps = reconcileSteps(state.steps, facts(state.reservation));
    const changed = steps.filter((s, i) => s.status !== state.steps[i]?.status);
    if (changed.length === 0 && !allStepsDone(steps)) return state;
    for (const step of changed) await repo.setStepStatus(tx, state.session.id, step.name, step.status);
    await finish(tx, state, steps, now);
    return load(tx, await repo.lockSession(tx, state.session.id), state.reservation);
  }

  /** Marks the session updated, and completed (with the reservation's check-in) when all is done. */
  async function finish(tx: Executor, state: Loaded, steps: ReturnType<typeof reconcileSteps>, now: Date) {
    const done = allStepsDone(steps);
    await repo.touchSession(tx, state.session.id, now, done);
    if (done) await reservations.setCheckinStatus(tx, state.reservation.id, 'completed');
    if (done) await recordCheckinEvent(tx, 'checkin.completed', state.reservation);
  }

  /** The public id of a stored session, kept encrypted for guests who prove the reservation again. */
  function sessionIdOf(session: SessionRow): string {
    return ctx.encryptor
      .decrypt(Buffer.from(session.token_secret), tokenContext(session.reservation_id))
      .toString();
  }

  async function findSession(ex: Executor, id: string): Promise<SessionRow> {
    const session = id.startsWith('cks_') ? await repo.sessionByTokenHash(ex, hashSecret(id)) : null;
    if (!session) throw new AppError('not_found', 'No check-in session has this id.');
    return session;
  }

  /**
   * Counts one proof attempt in a window kept in the database (shared by every process); over
   * `limit` it is `rate_limited` with the seconds left in the window. `key` names the counter.
   */
  async function countAttempt(key: Buffer, policy: string, limit: number, what: string): Promise<void> {
    const window = ctx.config.checkinProofWindowSeconds;
    const now = ctx.clock.now();
    const counted = await repo.countProofAttempt(db, key, now, window);
    const limited = windowLimitExceeded(
      policy,
      limit,
      window,
      counted,
      now,
      (s) => `Too many failed attempts ${what}; retry in ${s} s.`,
    );
    if (limited) throw limited;
  }

  /**
   * Limits proofs by last name (and wrong tokens) against guessing, without letting one client
   * lock out the others behind the same address (a hotel's Wi-Fi, a website's proxy):
   * - per (address, reservation code), `CHECKIN_PROOF_LIMIT` per window (default 20 / 15 min):
   *   guessing the name of one known code stays slow, and a correct name for that code is refused
   *   too once its limit is reached (otherwise the limit would not limit);
   * - per address, the higher `CHECKIN_PROOF_ADDRESS_LIMIT` (default 200 / 15 min), across codes.
   *   Attempts refused by the first limit do not count here, so hammering one code cannot lock
   *   the address out of the others.
   * A valid access token is never limited (the caller checks it before this).
   *
   * Why guessing stays infeasible at the defaults: a code is 9 Crockford base32 characters,
   * 32^9 = 2^45 ≈ 3.5e13 codes. An address may fail 200 times per 15 min = 19,200 a day. With a
   * million live reservations and the last name always guessed right (a pessimistic bound), one
   * attempt hits with probability 1e6 / 3.5e13 ≈ 2.9e-8: about 3.5e7 attempts expected, 1,800
   * days (≈ 5 years) per address; with 10,000 live reservations, ≈ 500 years. Guessing the name
   * of one known code is capped at 20 tries per 15 min from an address.
   */
  async function limitProofs(address: string, code: string | null): Promise<Buffer[]> {
    const { checkinProofLimit, checkinProofAddressLimit } = ctx.config;
    const counters: Buffer[] = [];
    if (code !== null) {
      const pair = hashSecret(`checkin-proof\u0000${address}\u0000${code}`);
      await countAttempt(pair, 'checkin-proof', checkinProofLimit, 'for this reservation from this address');
      counters.push(pair);
    }
    const perAddress = hashSecret(`checkin-proof\u0000${address}`);
    await countAttempt(
      perAddress,
      'checkin-proof-address',
      checkinProofAddressLimit,
      'to find a reservation from this address',
    );
    counters.push(perAddress);
    return counters;
  }

  return {
    /**
     * Opens the reservation's session, or returns the one it has. A wrong code, name or token are
     * all the same `not_found`, and count against the caller's address.
     */
    async open(proof: ReservationProof, options: WriteOptions<OpenedSession> = {}): Promise<OpenedSession> {
      if (proof.lastName === undefined && proof.accessToken === undefined) {
        throw new AppError(
          'unauthorized',
          'Prove the reservation with `lastName` in the body or `Authorization: Bearer <accessToken>`.',
          { headers: { 'www-authenticate': 'Bearer realm="innkeep"' } },
        );
      }
      const code = normalizeConfirmationCode(proof.reservationId);
      const reservation = code ? await reservations.findByCode(db, code) : null;
      // A valid access token (160 random bits: nothing to guess) is never rate limited.
      const tokenProven =
        reservation !== null &&
        proof.accessToken !== undefined &&
        sameHash(hashSecret(proof.accessToken), reservation.accessTokenHash);
      if (!tokenProven) {
        const counters = await limitProofs(proof.clientAddress, code);
        const nameProven =
          reservation !== null &&
          proof.lastName !== undefined &&
          sameLastName(proof.lastName, reservation.guest.lastName);
        if (!reservation || !nameProven) throw new AppError('not_found', NOT_FOUND);
        for (const counter of counters) await repo.forgiveProofAttempt(db, counter);
      }
      if (!reservation) throw new AppError('not_found', NOT_FOUND);

      if (reservation.status === 'cancelled') {
        throw new AppError(
          'reservation_cancelled',
          `Reservation ${reservation.code} is cancelled; there is nothing to check in.`,
        );
      }
      const hotel = hotelOf(reservation);
      const expiresAt = expiryOf(reservation, hotel);
      if (ctx.clock.now() >= expiresAt) throw expired(expiresAt);

      const existing = await repo.sessionByReservation(db, reservation.id);
      if (existing)
        return {
          created: false,
          signed: await sign(sessionIdOf(existing), await load(db, existing, reservation)),
        };

      const newId = randomToken('cks_', SESSION_ID_BYTES);
      // Signed inside the transaction, so the answer can be stored with the session it reports.
      return db.transaction(async (tx) => {
        const locked = await reservations.findById(tx, reservation.id, { forUpdate: true });
        if (locked.status === 'cancelled') {
          throw new AppError(
            'reservation_cancelled',
            `Reservation ${locked.code} is cancelled; there is nothing to check in.`,
          );
        }
        const now = ctx.clock.now();
        const sessionId = await repo.insertSession(
          tx,
          {
            tokenHash: hashSecret(newId),
            tokenSecret: ctx.encryptor.encrypt(newId, tokenContext(locked.id)),
            reservationId: locked.id,
            now,
          },
          initialSteps(facts(locked)),
        );
        if (sessionId === null) {
          // Another request created it between our read and our lock: answer with that one.
          const other = await repo.sessionByReservation(tx, locked.id);
          if (!other) throw new Error(`check-in session of reservation ${locked.code} vanished`);
          const signed = await sign(sessionIdOf(other), await load(tx, other, locked), tx);
          return finishWrite(tx, { created: false, signed }, options);
        }
        await reservations.setCheckinStatus(tx, locked.id, 'in_progress');
        await recordCheckinEvent(tx, 'checkin.started', locked);
        const signed = await sign(newId, await load(tx, await repo.lockSession(tx, sessionId), locked), tx);
        return finishWrite(tx, { created: true, signed }, options);
      });
    },

    /** Unknown ids are `not_found` and expired sessions `session_expired`, for any request. */
    async ensureReachable(id: string): Promise<void> {
      const state = await load(db, await findSession(db, id));
      if (ctx.clock.now() >= state.expiresAt) throw expired(state.expiresAt);
    },

    /** The session and its signature (API.md 3.2). */
    async read(id: string): Promise<SignedSession> {
      let state = await load(db, await findSession(db, id));
      if (ctx.clock.now() >= state.expiresAt) throw expired(state.expiresAt);
      const open = sessionStatus(state.session, state.reservation) === 'open';
      const reconciled = reconcileSteps(state.steps, facts(state.reservation));
      if (
        open &&
        (reconciled.some((s, i) => s.status !== state.steps[i]?.status) || allStepsDone(reconciled))
      ) {
        const sessionRowId = state.session.id;
        const reservationId = state.reservation.id;
        state = await db.transaction(async (tx) => {
          const reservation = await reservations.findById(tx, reservationId, { forUpdate: true });
          const fresh = await load(tx, await repo.lockSession(tx, sessionRowId), reservation);
          return settle(tx, fresh, ctx.clock.now());
        });
      }
      return sign(id, state);
    },

    /**
     * One step, in one transaction: the refusals of the state machine first, then the data's
     * schema and rules (invalid data changes nothing), then the step is stored and, with the last
     * one, the session completes. The payment step charges the balance due.
     */
    async submit(
      id: string,
      submission: StepSubmission,
      options: WriteOptions<SignedSession> = {},
    ): Promise<SignedSession> {
      const step = submission.step;
      const sessionRow = await findSession(db, id);
      const { state, signed } = await db.transaction(async (tx) => {
        const reservation = await reservations.findById(tx, sessionRow.reservation_id, { forUpdate: true });
        let paid: ReservationRow | null = null;
        const now = ctx.clock.now();
        let current = await load(tx, await repo.lockSession(tx, sessionRow.id), reservation);
        if (now >= current.expiresAt) throw expired(current.expiresAt);
        current = await settle(tx, current, now);

        const status = sessionStatus(current.session, reservation);
        const refusal = refuseSubmission(status, current.steps, step);
        if (refusal) throw refusalError(refusal, step, reservation.code);

        const shapeErrors = schemaErrors(step, submission);
        if (shapeErrors.length > 0) throw validationError(shapeErrors);
        const checked = acceptStepData(step, submission.data, {
          partySize: partySize(reservation),
          checkOut: reservation.checkOut,
          today: hotelToday(current.hotel.timezone, now),
          recognisesPaymentToken: (token) => ctx.payments.recognises(token),
        });
        if (!checked.ok) throw validationError(checked.errors);
        let { view } = checked.accepted;

        const amount = balanceDue(reservation);
        if (step === 'payment' && amount === 0) {
          // A correction after paying: nothing is owed, so nothing is charged and the receipt stays.
          view = (current.steps.find((s) => s.name === 'payment')?.data ?? null) as typeof view;
        } else if (step === 'payment') {
          const token = (submission.data as { token: string }).token;
          // Refunded by the helper if this transaction does not commit.
          const charge = await chargeWithinTransaction(tx, paymentDeps, {
            reservationId: reservation.id,
            purpose: 'checkin',
            amount,
            currency: reservation.currency,
            token,
            reference: `${reservation.code}/checkin`,
            tokenPath: '/data/token',
            declined: (message, declineCode) => `The payment was declined (${declineCode}): ${message}`,
          });
          paid = await reservations.addPayment(tx, reservation.id, amount, now);
          await recordPaymentSucceeded(tx, paid, amount);
          view = {
            amount: { amount, currency: reservation.currency },
            ...(charge.brand ? { brand: charge.brand } : {}),
            ...(charge.last4 ? { last4: charge.last4 } : {}),
          };
        }

        const { secret, attachment } = checked.accepted;
        await repo.saveStep(tx, current.session.id, step, {
          data: view,
          secret: secret
            ? ctx.encryptor.encrypt(JSON.stringify(secret), stepContext(current.session.id, step, 'secret'))
            : null,
          attachment: attachment
            ? ctx.encryptor.encrypt(attachment, stepContext(current.session.id, step, 'attachment'))
            : null,
          now,
        });
        await finish(tx, current, completeStep(current.steps, step), now);
        const after = await load(tx, await repo.lockSession(tx, current.session.id), paid ?? reservation);
        // Signed inside the transaction, so the answer can be stored with the step it reports.
        return { state: after, signed: await finishWrite(tx, await sign(id, after, tx), options) };
      });
      // Counted after the commit (a retried transaction must not count twice); a step on a
      // completed session is refused, so a completed state here was completed by this step.
      if (state.session.status === 'completed') domainMetrics.checkinCompleted(state.hotel.id);
      return signed;
    },
  };
}

/** `payment.succeeded` (API.md 8.1), in the step's transaction: the reservation as the hotel sees it. */
async function recordPaymentSucceeded(tx: Executor, paid: ReservationRow, amount: number) {
  await recordEvent(tx, {
    type: 'payment.succeeded',
    hotelId: paid.hotelId,
    data: {
      reservation: operatorReservationView(paid),
      payment: { amount: { amount, currency: paid.currency }, kind: 'charge', purpose: 'checkin' },
    },
  });
}

function validationError(errors: { path?: string; message: string }[]): AppError {
  return validationProblem(errors.map((e) => ({ path: e.path ?? '/', message: e.message })));
}

function refusalError(
  refusal: NonNullable<ReturnType<typeof refuseSubmission>>,
  step: StepName,
  code: string,
): AppError {
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
