import { Type } from '@sinclair/typebox';
import { CalendarDate } from '../infra/http/common-schemas.ts';

export const GuestRegisterQuery = Type.Object(
  { date: CalendarDate('the arrival date: guests of reservations checking in that day', ['2027-03-01']) },
  { additionalProperties: false },
);

const IdentityDocument = Type.Object(
  {
    type: Type.String({ examples: ['passport'] }),
    number: Type.String({ description: 'the document number in full, decrypted for this read' }),
    issuingCountry: Type.String({ description: 'ISO 3166-1 alpha-2' }),
    expiryDate: CalendarDate('expiry date of the document'),
  },
  { additionalProperties: false },
);

const registerExample = {
  reservationId: 'R7K3M9Q2X',
  role: 'primary',
  firstName: 'Ana',
  lastName: 'Silva',
  dateOfBirth: '1988-04-02',
  nationality: 'PT',
  document: { type: 'passport', number: 'CA1234567', issuingCountry: 'PT', expiryDate: '2031-05-20' },
  checkIn: '2027-03-01',
  checkOut: '2027-03-04',
};

export const GuestRegisterEntry = Type.Object(
  {
    reservationId: Type.String({ description: 'confirmation code' }),
    role: Type.Union([Type.Literal('primary'), Type.Literal('companion')]),
    firstName: Type.String(),
    lastName: Type.String(),
    dateOfBirth: CalendarDate('date of birth'),
    nationality: Type.String({ description: 'ISO 3166-1 alpha-2' }),
    document: Type.Union([IdentityDocument, Type.Null()], {
      description:
        'the primary guest’s identity document; `null` for companions, before the document step and after the identity purge',
    }),
    checkIn: CalendarDate('check-in date'),
    checkOut: CalendarDate('check-out date'),
  },
  { title: 'GuestRegisterEntry', examples: [registerExample] },
);

export const GuestRegister = Type.Object(
  { data: Type.Array(GuestRegisterEntry, { description: 'by reservation code; primary guest first' }) },
  { title: 'GuestRegister', examples: [{ data: [registerExample] }] },
);

/** The CSV columns, in order: the entry's fields, the document's flattened. */
export const REGISTER_CSV_HEADER = [
  'reservationId',
  'role',
  'firstName',
  'lastName',
  'dateOfBirth',
  'nationality',
  'documentType',
  'documentNumber',
  'documentIssuingCountry',
  'documentExpiryDate',
  'checkIn',
  'checkOut',
] as const;

export const GuestRegisterCsv = Type.String({
  description: `RFC 4180 CSV with a header row: ${REGISTER_CSV_HEADER.join(', ')}; every text cell quoted (document columns empty and unquoted when \`document\` is null)`,
  examples: [
    `${REGISTER_CSV_HEADER.map((name) => `"${name}"`).join(',')}\r\n"R7K3M9Q2X","primary","Ana","Silva","1988-04-02","PT","passport","CA1234567","PT","2031-05-20","2027-03-01","2027-03-04"\r\n`,
  ],
});
