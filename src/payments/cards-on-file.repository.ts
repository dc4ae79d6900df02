import type { Executor } from '../infra/db/database.ts';

/** The card a guest left with a deposit plan (migration 120): what the provider needs to charge it again. */
export interface CardOnFile {
  provider: string;
  /** The test provider's token, or Stripe's PaymentMethod (`pm_…`). */
  token: string;
  /** Stripe's Customer (`cus_…`) the PaymentMethod is attached to; null for the test provider. */
  customer: string | null;
  brand: string | null;
  last4: string | null;
}

/** The `cards_on_file` table: one card per reservation, the latest one given. */
export const cardsOnFileRepository = {
  async save(tx: Executor, hotelId: string, reservationId: number, card: CardOnFile): Promise<void> {
    await tx.query(
      `INSERT INTO cards_on_file (hotel_id, reservation_id, provider, token, customer, brand, last4)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (hotel_id, reservation_id) DO UPDATE
       SET provider = EXCLUDED.provider, token = EXCLUDED.token, customer = EXCLUDED.customer,
           brand = EXCLUDED.brand, last4 = EXCLUDED.last4`,
      [hotelId, reservationId, card.provider, card.token, card.customer, card.brand, card.last4],
    );
  },

  async find(ex: Executor, hotelId: string, reservationId: number): Promise<CardOnFile | null> {
    const { rows } = await ex.query<CardOnFile>(
      `SELECT provider, token, customer, brand, last4 FROM cards_on_file
       WHERE hotel_id = $1 AND reservation_id = $2`,
      [hotelId, reservationId],
    );
    return rows[0] ?? null;
  },
};
