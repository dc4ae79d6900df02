import { Type } from '@sinclair/typebox';
import { CalendarDate, MoneyRef } from '../infra/http/common-schemas.ts';
import { FreeText, Name } from '../infra/http/text-schemas.ts';

/** The largest amount of one line or payment, in minor units (as the catalogue's prices). */
const MAX_AMOUNT = 1_000_000_000;

const VatRate = Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()], {
  description:
    'the percent of VAT the price includes (a `percent_included` tax of the hotel); null outside VAT',
});

export const FolioLine = Type.Object(
  {
    id: Type.String({ description: '`fl_…`' }),
    date: CalendarDate('hotel-local date of the line (a room night, the check-in date, a charge’s date)'),
    type: Type.Union(['room', 'service', 'tax', 'fee', 'charge'].map((t) => Type.Literal(t))),
    code: Type.Union([Type.String(), Type.Null()], {
      description: 'room type, service or tax code; `cancellation` / `no_show` for a fee; null for a charge',
    }),
    description: Type.String(),
    quantity: Type.Integer(),
    unitAmount: MoneyRef,
    amount: MoneyRef,
    vatRate: VatRate,
    invoiceId: Type.Union([Type.String(), Type.Null()], { description: 'the invoice that took the line' }),
    voided: Type.Boolean(),
  },
  { title: 'FolioLine' },
);

export const FolioPayment = Type.Object(
  {
    id: Type.String({ description: '`fp_…`' }),
    at: Type.String({ format: 'date-time' }),
    kind: Type.Union([Type.Literal('payment'), Type.Literal('refund')]),
    method: Type.Union(
      ['cash', 'card_terminal', 'bank_transfer', 'card'].map((m) => Type.Literal(m)),
      {
        description: '`card`: through the payment provider (docs/api.md §4), shown by itself',
      },
    ),
    amount: MoneyRef,
    reference: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'FolioPayment' },
);

export const Folio = Type.Object(
  {
    reservationId: Type.String({ description: 'confirmation code' }),
    currency: Type.String(),
    lines: Type.Array(FolioLine),
    payments: Type.Array(FolioPayment),
    total: MoneyRef,
    paid: MoneyRef,
    balance: MoneyRef,
    vatRates: Type.Array(Type.Number(), {
      description: 'the VAT rates a desk charge may carry: the hotel’s `percent_included` taxes’',
    }),
    invoices: Type.Array(
      Type.Object({
        id: Type.String({ description: '`inv_…`' }),
        number: Type.String(),
        type: Type.Union([Type.Literal('invoice'), Type.Literal('credit_note')]),
        issueDate: Type.String({ description: 'hotel-local date of issue' }),
        total: MoneyRef,
        recipient: Type.String({ description: 'the recipient’s name' }),
        corrects: Type.Optional(Type.String({ description: 'the invoice a credit note annuls' })),
        correctedBy: Type.Optional(Type.String({ description: 'the credit note that annuls this invoice' })),
      }),
      { description: 'the reservation’s invoices and credit notes, in issue order' },
    ),
  },
  {
    title: 'Folio',
    description: '`total` = lines not voided; `paid` = payments − refunds; `balance` = total − paid',
  },
);

export const ChargeRequest = Type.Object(
  {
    description: Name({ minLength: 1, maxLength: 200, description: 'what the guest is charged for' }),
    unitAmount: Type.Integer({
      minimum: -MAX_AMOUNT,
      maximum: MAX_AMOUNT,
      description: 'minor units, VAT included; negative for a discount',
    }),
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1 })),
    date: Type.Optional(CalendarDate('hotel-local date; default today')),
    vatRate: Type.Optional(VatRate),
  },
  { additionalProperties: false, title: 'ChargeRequest' },
);

export const ChargeParams = Type.Object({
  reservation: Type.String({ minLength: 1, maxLength: 32, description: 'confirmation code' }),
  line: Type.String({ minLength: 1, maxLength: 64, description: '`fl_…`' }),
});

export const PaymentRequest = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: MAX_AMOUNT, description: 'minor units' }),
    method: Type.Union([Type.Literal('cash'), Type.Literal('card_terminal'), Type.Literal('bank_transfer')]),
    kind: Type.Optional(
      Type.Union([Type.Literal('payment'), Type.Literal('refund')], { default: 'payment' }),
    ),
    reference: Type.Optional(
      FreeText({ maxLength: 200, description: 'a terminal slip, a transfer reference' }),
    ),
  },
  { additionalProperties: false, title: 'DeskPaymentRequest' },
);
