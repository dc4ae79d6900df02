import type { Executor } from '../infra/db/database.ts';

/** What the booking and check-in flows need from a card processor. Card data never reaches us: only tokens. */
export interface ChargeRequest {
  amount: number;
  currency: string;
  token: string;
  /** Our reference for the charge (reservation code + purpose), for the provider's records. */
  reference: string;
  /**
   * What this payment is for, the same on every retry of it (the quote, the reservation's version,
   * the balance at check-in): a provider derives its idempotency key from it, so a retried request,
   * a crash before our commit or two processes never charge twice.
   */
  idempotencyBasis?: string;
  hotelId?: string;
  /**
   * Hands the provider's own bookkeeping (a record of what it asked the processor for) to run once
   * the caller's transaction has ended, committed or not: it must outlive a rollback, and on the
   * embedded engine a statement cannot run beside the transaction that holds the engine.
   */
  afterEnd?: (work: () => Promise<void>) => void;
  /**
   * Keep the card for later charges without the guest (a deposit plan, API.md 14.2): the answer
   * carries `savedCard` (Stripe: a Customer, `setup_future_usage: "off_session"`).
   */
  saveCard?: boolean;
  /** A charge of a card on file, without the guest (`token` = the saved card; Stripe: its Customer). */
  offSession?: { customer: string | null };
}

/** A card kept for later charges: what `ChargeRequest.offSession` charges again. */
export interface SavedCard {
  token: string;
  customer: string | null;
}

/** What the guest must still do before the provider can charge (3-D Secure): API.md section 4. */
export interface NextAction {
  type: 'stripe';
  clientSecret: string;
}

export type ChargeResult =
  | { ok: true; providerRef: string; brand?: string; last4?: string; savedCard?: SavedCard }
  | { ok: false; declineCode: string; message: string; nextAction?: NextAction };

export interface RefundRequest {
  /** The provider's reference of the charge to refund (null: the provider picks; the test provider). */
  providerRef: string | null;
  amount: number;
  currency: string;
  reference: string;
  /** The same for every attempt at one refund, so a retried attempt never refunds twice. */
  idempotencyKey?: string;
}

/** A refund the provider refused for good (not a fault to retry): it needs a human. */
export class RefundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefundRefused';
  }
}

export interface PaymentProvider {
  readonly name: string;
  /** False for a token this provider can never accept (a client error, not a decline). */
  recognises(token: string): boolean;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Throws RefundRefused when the provider will never make this refund; any other error may pass. */
  refund(request: RefundRequest): Promise<{
    providerRef: string;
  }>;
  /**
   * A charge whose transaction did not commit. Without this the charge is refunded at once; a
   * provider with idempotent charges keeps it for the retry that will reuse it (and refunds it
   * later if none comes).
   */
  abandon?(charge: {
    providerRef: string;
    amount: number;
    currency: string;
    reference: string;
    hotelId: string | null;
  }): Promise<void>;
  /**
   * Inside the transaction that records the charge: claims it for this payment. `refunded` when the
   * provider already gave the money back (an abandoned charge refunded before its retry came);
   * `not_ours` when the token named a payment this service did not make for this payment.
   */
  claim?(
    tx: Executor,
    providerRef: string,
    request: ChargeRequest,
  ): Promise<'claimed' | 'refunded' | 'not_ours'>;
}
