import { hashSecret, normalizeConfirmationCode, sameHash } from '../../infra/crypto/tokens.ts';
import { finishWrite, type WriteOptions } from '../../infra/db/database.ts';
import { AppError } from '../../infra/http/problems.ts';
import { reservationRepository as reservations } from '../../reservations/reservation.repository.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';
import { reservationCodesRepository as codes } from '../../reservations/reservation-codes.repository.ts';
import { checkinRepository as repo, type SessionRow, type StoredSession } from '../checkin.repository.ts';
import type { SignedSession } from '../checkin.schemas.ts';
import { recordCheckinEvent } from '../checkin-events.ts';
import { reachedSessionRepository } from '../reached-session.repository.ts';
import { sameLastName } from '../rules/proof.ts';
import { stepFacts } from '../rules/reservation-facts.ts';
import { initialSteps } from '../rules/step-machine.ts';
import { newSessionId } from '../session-id.ts';
import { tokenContext } from '../session-secrets.ts';
import type { CheckinContext } from './checkin-context.ts';
import { countProof, forgiveProofs } from './proof-limits.ts';
import { assertNotExpired, expiryOf, hotelOf, stateOf } from './session-state.ts';
import { signSession } from './sign-session.ts';

/** How a caller proves a reservation: the booker's last name, or the reservation's access token. */
export interface ReservationProof {
  lastName?: string | undefined;
  accessToken?: string | undefined;
  /** The service itself, opening the session its check-in invitation links to (API.md 10). */
  invitation?: true;
  /** The client address failed proofs are counted against. */
  clientAddress: string;
}

export interface OpenedSession {
  created: boolean;
  signed: SignedSession;
}

const NOT_FOUND = 'No reservation matches this confirmation code and proof.';

const cancelled = (reservation: ReservationRow) =>
  new AppError(
    'reservation_cancelled',
    `Reservation ${reservation.code} is cancelled; there is nothing to check in.`,
  );

/** The public id of a stored session, kept encrypted for guests who prove the reservation again. */
function sessionIdOf(ctx: CheckinContext, session: SessionRow): string {
  return ctx.encryptor
    .decrypt(Buffer.from(session.token_secret), tokenContext(session.reservation_id))
    .toString();
}

/** A reservation a code names, with its check-in session when it has one. */
interface FoundReservation {
  reservation: ReservationRow;
  session: StoredSession | null;
}

/**
 * The reservation a confirmation code names, with its session: its hotel from `reservation_codes`
 * (which holds every code, sharded by code), then one read inside that hotel's rows, so that on
 * Citus each statement goes to one shard (issue 37), never to every shard.
 */
async function reservationByCode(ctx: CheckinContext, code: string | null): Promise<FoundReservation | null> {
  if (!code) return null;
  const hotelId = await codes.hotelOf(ctx.db, code);
  return hotelId === null ? null : reachedSessionRepository.reservationWithSession(ctx.db, hotelId, code);
}

/** The reservation the proof is for; a wrong code, name or token are all the same `not_found`. */
async function provenReservation(
  ctx: CheckinContext,
  reservationId: string,
  proof: ReservationProof,
): Promise<FoundReservation> {
  const code = normalizeConfirmationCode(reservationId);
  const found = await reservationByCode(ctx, code);
  const reservation = found?.reservation ?? null;
  if (proof.invitation) {
    if (!found) throw new AppError('not_found', NOT_FOUND);
    return found;
  }
  // A valid access token (160 random bits: nothing to guess) is never rate limited.
  const tokenProven =
    reservation !== null &&
    proof.accessToken !== undefined &&
    sameHash(hashSecret(proof.accessToken), reservation.accessTokenHash);
  if (!tokenProven) {
    const counters = await countProof(ctx, proof.clientAddress, code);
    const nameProven =
      reservation !== null &&
      proof.lastName !== undefined &&
      sameLastName(proof.lastName, reservation.guest.lastName);
    if (!found || !nameProven) throw new AppError('not_found', NOT_FOUND);
    await forgiveProofs(ctx, counters);
  }
  if (!found) throw new AppError('not_found', NOT_FOUND);
  return found;
}

/**
 * Opens the reservation's session (API.md 3.1), or returns the one it has. A wrong code, name or
 * token are all the same `not_found`, and count against the caller's address.
 */
export async function openSession(
  ctx: CheckinContext,
  input: { reservationId: string },
  proof: ReservationProof,
  options: WriteOptions<OpenedSession> = {},
): Promise<OpenedSession> {
  if (proof.lastName === undefined && proof.accessToken === undefined && !proof.invitation) {
    throw new AppError(
      'unauthorized',
      'Prove the reservation with `lastName` in the body or `Authorization: Bearer <accessToken>`.',
      { headers: { 'www-authenticate': 'Bearer realm="innkeep"' } },
    );
  }
  const { reservation, session: existing } = await provenReservation(ctx, input.reservationId, proof);
  if (reservation.status === 'cancelled') throw cancelled(reservation);
  assertNotExpired(ctx, expiryOf(reservation, hotelOf(ctx, reservation)));

  // A started check-in has its session: answered as it is, with no transaction.
  if (reservation.checkinStatus !== 'not_started') {
    if (existing) {
      const state = stateOf(ctx, sessionIdOf(ctx, existing.session), existing, reservation);
      return { created: false, signed: await signSession(ctx, state) };
    }
  }

  const newId = newSessionId(reservation.hotelId);
  // Signed inside the transaction, so the answer can be stored with the session it reports.
  return ctx.db.transaction(async (tx) => {
    // Locks the reservation and marks its check-in started in one statement, unless it was
    // cancelled or started meanwhile (then locked and read as it is).
    const started = await reservations.startCheckin(tx, reservation);
    const locked =
      started ??
      (await reservations.findById(tx, reservation.id, { forUpdate: true, hotelId: reservation.hotelId }));
    if (locked.status === 'cancelled') throw cancelled(locked);
    const steps = initialSteps(stepFacts(locked));
    const session = await repo.insertSession(
      tx,
      {
        tokenHash: hashSecret(newId),
        tokenSecret: ctx.encryptor.encrypt(newId, tokenContext(locked.id)),
        reservationId: locked.id,
        hotelId: locked.hotelId,
        now: ctx.clock.now(),
      },
      steps,
    );
    if (!session) {
      // Another request created it between our read and our lock: answer with that one.
      const other = await repo.sessionByReservation(tx, locked);
      if (!other) throw new Error(`check-in session of reservation ${locked.code} vanished`);
      const state = stateOf(ctx, sessionIdOf(ctx, other.session), other, locked);
      return finishWrite(tx, { created: false, signed: await signSession(ctx, state, tx) }, options);
    }
    if (!started) await reservations.setCheckinStatus(tx, locked, 'in_progress');
    await recordCheckinEvent(tx, 'checkin.started', locked);
    const state = stateOf(ctx, newId, { session, steps: steps.map((s) => ({ ...s, data: null })) }, locked);
    return finishWrite(tx, { created: true, signed: await signSession(ctx, state, tx) }, options);
  });
}
