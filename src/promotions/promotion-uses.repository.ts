import type { Executor } from '../infra/db/database.ts';

/** The `promotion_uses` table: which confirmed reservation holds which code, for which e-mail. */
export const promotionUsesRepository = {
  async insert(
    tx: Executor,
    hotelId: string,
    reservationId: number,
    code: string,
    email: string,
  ): Promise<void> {
    await tx.query(
      'INSERT INTO promotion_uses (hotel_id, reservation_id, code, guest_email) VALUES ($1, $2, $3, $4)',
      [hotelId, reservationId, code, email.toLowerCase()],
    );
  },

  /** The code a reservation holds, if any. */
  async codeOf(tx: Executor, hotelId: string, reservationId: number): Promise<string | null> {
    const { rows } = await tx.query<{ code: string }>(
      'SELECT code FROM promotion_uses WHERE hotel_id = $1 AND reservation_id = $2',
      [hotelId, reservationId],
    );
    return rows[0]?.code ?? null;
  },

  /** Removes a reservation's use; returns the code it held, if any. */
  async remove(tx: Executor, hotelId: string, reservationId: number): Promise<string | null> {
    const { rows } = await tx.query<{ code: string }>(
      'DELETE FROM promotion_uses WHERE hotel_id = $1 AND reservation_id = $2 RETURNING code',
      [hotelId, reservationId],
    );
    return rows[0]?.code ?? null;
  },

  /** Confirmed reservations of one guest e-mail holding a code, but `except` (the one being changed). */
  async countForGuest(
    tx: Executor,
    hotelId: string,
    code: string,
    email: string,
    except: number | null,
  ): Promise<number> {
    const { rows } = await tx.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM promotion_uses
       WHERE hotel_id = $1 AND code = $2 AND guest_email = $3 AND ($4::bigint IS NULL OR reservation_id <> $4::bigint)`,
      [hotelId, code, email.toLowerCase(), except],
    );
    return rows[0]?.n ?? 0;
  },
};
