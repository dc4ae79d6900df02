import { Type } from '@sinclair/typebox';
import { CalendarDate, MoneyRef } from '../infra/http/common-schemas.ts';
import { FreeText, Name } from '../infra/http/text-schemas.ts';

export const Recipient = Type.Object(
  {
    name: Name({ minLength: 1, maxLength: 200 }),
    taxId: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9][A-Za-z0-9.-]{0,29}$',
        description: 'the company’s tax id (VAT number)',
      }),
    ),
    address: Type.Optional(FreeText({ maxLength: 500 })),
    country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })),
  },
  { additionalProperties: false, title: 'InvoiceRecipient' },
);

export const IssueInvoiceRequest = Type.Object(
  { recipient: Type.Optional(Recipient) },
  { additionalProperties: false, title: 'IssueInvoiceRequest' },
);

export const CreditNoteRequest = Type.Object(
  { reason: FreeText({ minLength: 1, maxLength: 500, description: 'why the invoice is annulled' }) },
  { additionalProperties: false, title: 'CreditNoteRequest' },
);

const Issuer = Type.Object({
  name: Type.String(),
  taxId: Type.String(),
  address: Type.String(),
  country: Type.String(),
});

const Party = Type.Object({
  name: Type.String(),
  taxId: Type.Optional(Type.String()),
  address: Type.Optional(Type.String()),
  country: Type.Optional(Type.String()),
});

export const Invoice = Type.Object(
  {
    id: Type.String({ description: '`inv_…`' }),
    number: Type.String({ examples: ['F2027-000001'] }),
    series: Type.String(),
    type: Type.Union([Type.Literal('invoice'), Type.Literal('credit_note')]),
    issuedAt: Type.String({ format: 'date-time' }),
    issueDate: CalendarDate('hotel-local date of issue'),
    reservationId: Type.String({ description: 'confirmation code' }),
    issuer: Issuer,
    recipient: Party,
    lines: Type.Array(
      Type.Object({
        description: Type.String(),
        quantity: Type.Integer(),
        unitAmount: MoneyRef,
        amount: MoneyRef,
        vatRate: Type.Union([Type.Number(), Type.Null()]),
      }),
    ),
    taxes: Type.Array(Type.Object({ vatRate: Type.Number(), base: MoneyRef, amount: MoneyRef }), {
      description:
        'one entry per VAT rate: `amount` the VAT included in those lines, `base + amount` their sum',
    }),
    total: MoneyRef,
    language: Type.Union([Type.Literal('en'), Type.Literal('es'), Type.Literal('pt')]),
    corrects: Type.Optional(Type.String({ description: 'the invoice a credit note annuls' })),
    verifactu: Type.Optional(
      Type.Object({
        hash: Type.String({ description: 'uppercase hex SHA-256 of the record (docs/api.md §12)' }),
        previousHash: Type.String({
          description: 'the issuer’s previous record’s hash; empty for the first',
        }),
        generatedAt: Type.String({ description: 'hotel-local time with offset, as hashed' }),
        qrUrl: Type.String(),
      }),
    ),
  },
  { title: 'Invoice' },
);

export const InvoiceParams = Type.Object({
  invoice: Type.String({ minLength: 1, maxLength: 64, description: '`inv_…`' }),
});

export const InvoicePdfQuery = Type.Object(
  {
    language: Type.Optional(
      Type.Union([Type.Literal('en'), Type.Literal('es'), Type.Literal('pt')], {
        description: 'the PDF’s language; by default the invoice’s (the guest’s)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The PDF's bytes: sent as a Buffer, never serialised. */
export const InvoicePdfDocument = Type.Unsafe<Buffer>({
  type: 'string',
  format: 'binary',
  description:
    'an A4 PDF: issuer, recipient, number, dates, lines, VAT breakdown, total and, under VERI*FACTU, the QR code with AEAT’s legend',
});

export const InvoiceListQuery = Type.Object(
  {
    from: Type.Optional(CalendarDate('first issue date (inclusive)')),
    to: Type.Optional(CalendarDate('last issue date (inclusive)')),
    cursor: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,18}$', description: 'the previous page’s nextCursor' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  },
  { additionalProperties: false },
);

export const InvoicePage = Type.Object(
  { data: Type.Array(Invoice), nextCursor: Type.Union([Type.String(), Type.Null()]) },
  { title: 'InvoicePage' },
);

export const INVOICE_CSV_HEADER = [
  'number',
  'type',
  'issueDate',
  'reservationId',
  'recipientName',
  'recipientTaxId',
  'currency',
  'vatRate',
  'base',
  'vat',
  'total',
  'corrects',
] as const;

export const InvoiceCsv = Type.String({
  description: `RFC 4180 CSV with a header row: ${INVOICE_CSV_HEADER.join(', ')}; one row per invoice and VAT rate (amounts in units with a dot; a line outside VAT has its own row with an empty rate)`,
});

export const RecordsQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,18}$', description: 'the previous page’s nextCursor' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);

const FIELD = Type.String();
export const RecordsPage = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        invoiceId: Type.String(),
        number: Type.String(),
        fields: Type.Object({
          IDEmisorFactura: FIELD,
          NumSerieFactura: FIELD,
          FechaExpedicionFactura: FIELD,
          TipoFactura: FIELD,
          CuotaTotal: FIELD,
          ImporteTotal: FIELD,
          Huella: FIELD,
          FechaHoraHusoGenRegistro: FIELD,
        }),
        hash: Type.String(),
        previousHash: Type.String(),
        generatedAt: Type.String(),
      }),
    ),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'VerifactuRecordPage' },
);
