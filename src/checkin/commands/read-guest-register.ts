import type { AppContext } from '../../context.ts';
import type { Encryptor } from '../../infra/crypto/encryption.ts';
import type { Executor } from '../../infra/db/database.ts';
import { type Audited, actorOf, recordAudit } from '../../operator-access/audit-trail.ts';
import type { Principal } from '../../operator-access/scopes.ts';
import { guestRegisterRepository, type RegisterReservationRow } from '../guest-register.repository.ts';
import { stepContext } from '../session-secrets.ts';

export interface RegisterDocument {
  type: string;
  number: string;
  issuingCountry: string;
  expiryDate: string;
}

/** One line of the guest register (API.md 7.3). */
export interface RegisterGuest {
  reservationId: string;
  role: 'primary' | 'companion';
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  nationality: string;
  document: RegisterDocument | null;
  checkIn: string;
  checkOut: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The identity document with its number decrypted, or null when there is none: not given yet, or
 * purged after the retention period (the purge removes the ciphertext and leaves `{ purged: true }`).
 */
function documentOf(row: RegisterReservationRow, encryptor: Encryptor): RegisterDocument | null {
  const identity = row.identity;
  if (!identity || identity.purged === true || !row.identity_secret) return null;
  const secret = JSON.parse(
    encryptor
      .decrypt(Buffer.from(row.identity_secret), stepContext(row.session_id, 'identity_document', 'secret'))
      .toString('utf8'),
  ) as { number: string };
  return {
    type: text(identity.type),
    number: secret.number,
    issuingCountry: text(identity.issuingCountry),
    expiryDate: text(identity.expiryDate),
  };
}

/**
 * Every guest of the hotel's confirmed reservations arriving on `date` whose guest details are
 * given: the primary guest (with the identity document, its number in full) then the companions
 * (the check-in collects one document per reservation, the primary guest's), by reservation code.
 */
async function registerOf(
  db: Executor,
  encryptor: Encryptor,
  hotelId: string,
  date: string,
): Promise<RegisterGuest[]> {
  const rows = await guestRegisterRepository.arrivals(db, hotelId, date);
  return rows.flatMap((row) => {
    const stay = { checkIn: row.check_in, checkOut: row.check_out };
    const person = (p: Record<string, unknown>) => ({
      firstName: text(p.firstName),
      lastName: text(p.lastName),
      dateOfBirth: text(p.dateOfBirth),
      nationality: text(p.nationality),
    });
    const primary: RegisterGuest = {
      reservationId: row.code,
      role: 'primary',
      ...person(row.guest_details),
      document: documentOf(row, encryptor),
      ...stay,
    };
    const companions = (row.companions?.guests ?? []).map(
      (guest): RegisterGuest => ({
        reservationId: row.code,
        role: 'companion',
        ...person(guest),
        document: null,
        ...stay,
      }),
    );
    return [primary, ...companions];
  });
}

/**
 * The guest register of the hotel's arrivals on `date` for `actor` (API.md 7.3): the read and its
 * audit entry (key, hotel, date, number of guests and the format asked; no identity data) commit
 * together, so no identity data leaves without its record (naming the request's id, from `ctx`).
 * The hotel is checked visible already.
 */
export function readGuestRegister(
  ctx: Pick<AppContext, 'db' | 'encryptor'> & Audited,
  actor: Principal,
  request: { hotelId: string; date: string; format: 'csv' | 'json' },
): Promise<RegisterGuest[]> {
  const { hotelId, date, format } = request;
  return ctx.db.transaction(async (tx) => {
    const found = await registerOf(tx, ctx.encryptor, hotelId, date);
    await recordAudit(tx, ctx.audit, {
      actor: actorOf(actor),
      hotelIds: [hotelId],
      action: 'guest_register.read',
      target: { type: 'guest_register', id: `${hotelId}/${date}` },
      details: { date, guests: found.length, format },
    });
    return found;
  });
}
