/** What the booking and check-in flows need from a card processor. Card data never reaches us: only tokens. */
export interface ChargeRequest {
  amount: number;
  currency: string;
  token: string;
  /** Our reference for the charge (reservation code + purpose), for the provider's records. */
  reference: string;
}

export type ChargeResult =
  | { ok: true; providerRef: string; brand?: string; last4?: string }
  | { ok: false; declineCode: string; message: string };

export interface PaymentProvider {
  readonly name: string;
  /** False for a token this provider can never accept (a client error, not a decline). */
  recognises(token: string): boolean;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(request: {
    providerRef: string | null;
    amount: number;
    currency: string;
    reference: string;
  }): Promise<{
    providerRef: string;
  }>;
}
