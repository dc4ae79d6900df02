import type { Executor } from '../infra/db/database.ts';

/** One movement of money for a reservation, as kept in the `payments` ledger. */
export interface PaymentEntry {
  reservationId: number;
  kind: 'charge' | 'refund';
  purpose: PaymentPurpose;
  amount: number;
  currency: string;
  provider: string;
  providerRef: string;
  brand?: string | undefined;
  last4?: string | undefined;
}

export type PaymentPurpose = 'booking' | 'modification' | 'cancellation' | 'checkin' | 'no_show';

/** The `payments` table: every charge and refund, written in the transaction of the change it pays for. */
export const paymentLedger = {
  async record(tx: Executor, p: PaymentEntry): Promise<void> {
    await tx.query(
      `INSERT INTO payments (reservation_id, kind, purpose, amount, currency, provider, provider_ref, brand, last4)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        p.reservationId,
        p.kind,
        p.purpose,
        p.amount,
        p.currency,
        p.provider,
        p.providerRef,
        p.brand ?? null,
        p.last4 ?? null,
      ],
    );
  },
};
