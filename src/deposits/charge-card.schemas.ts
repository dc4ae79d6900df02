import { Type } from '@sinclair/typebox';
import { MoneyRef } from '../infra/http/common-schemas.ts';
import { Name } from '../infra/http/text-schemas.ts';

/** `POST /operator/reservations/{reservation}/charge-card` (API.md 14.2). */
export const ChargeCardRequest = Type.Object(
  {
    amount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000_000,
        description:
          'minor units; default the folio’s balance. Never more than the balance (409 amount_exceeds_balance)',
      }),
    ),
    reason: Name({
      minLength: 1,
      maxLength: 200,
      description:
        'why the card is charged: the balance, a no-show fee, … (recorded with the payment’s event)',
      examples: ['no-show fee'],
    }),
  },
  { additionalProperties: false, title: 'ChargeCardRequest' },
);

export const ChargeCardResponse = Type.Object(
  {
    reservationId: Type.String({ description: 'confirmation code' }),
    payment: Type.Object(
      {
        id: Type.String({ description: '`fp_…`: the payment as the folio shows it (method `card`)' }),
        at: Type.String({ format: 'date-time' }),
        kind: Type.Literal('payment'),
        method: Type.Literal('card'),
        amount: MoneyRef,
        reference: Type.Union([Type.String(), Type.Null()], { description: 'the provider’s reference' }),
      },
      { additionalProperties: false },
    ),
    reason: Type.String(),
    balance: Type.Object(
      { amount: Type.Integer(), currency: Type.String() },
      { description: 'the folio’s balance after the charge' },
    ),
  },
  { title: 'ChargeCardResult' },
);
