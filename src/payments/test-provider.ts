import { randomUUID } from 'node:crypto';
import type { PaymentProvider } from './payment-provider.ts';

const CARDS: Record<
  string,
  { brand: string; last4: string; offSessionDecline?: boolean } | { decline: string; message: string }
> = {
  tok_visa: { brand: 'visa', last4: '4242' },
  // Pays with the guest present, declined when charged later from file (Stripe's
  // `pm_card_chargeCustomerFail`): the refused balance of API.md 14.2.
  tok_chargeCustomerFail: { brand: 'visa', last4: '0341', offSessionDecline: true },
  tok_mastercard: { brand: 'mastercard', last4: '4444' },
  tok_declined: { decline: 'card_declined', message: 'The card was declined.' },
  tok_insufficient_funds: { decline: 'insufficient_funds', message: 'The card has insufficient funds.' },
};

/** The deterministic built-in provider of API.md section 4, for development and tests. */
export function createTestPaymentProvider(): PaymentProvider {
  return {
    name: 'test',
    recognises: (token) => token in CARDS,
    async charge({ token, saveCard, offSession }) {
      const card = CARDS[token];
      if (!card) throw new Error(`unrecognised token ${token}`);
      if ('decline' in card) return { ok: false, declineCode: card.decline, message: card.message };
      if (offSession && card.offSessionDecline)
        return { ok: false, declineCode: 'card_declined', message: 'The card on file was declined.' };
      return {
        ok: true,
        providerRef: `test_ch_${randomUUID()}`,
        brand: card.brand,
        last4: card.last4,
        // The test provider's tokens charge again as they are.
        ...(saveCard ? { savedCard: { token, customer: null } } : {}),
      };
    },
    async refund() {
      return { providerRef: `test_re_${randomUUID()}` };
    },
  };
}
