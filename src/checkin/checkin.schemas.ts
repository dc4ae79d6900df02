import { type Static, Type } from '@sinclair/typebox';
import { CalendarDate, MoneyRef } from '../infra/http/common-schemas.ts';
import { STEP_NAMES } from './steps.ts';

/** Largest decoded document image. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The identity document step carries an image; every other step keeps the service's 1 MiB limit. */
export const IDENTITY_BODY_LIMIT = 8 * 1024 * 1024;

const Name = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 100, description, examples: [example] });
const DateOf = (description: string, example: string) =>
  CalendarDate(`${description} (YYYY-MM-DD)`, [example]);
const Country = (description: string) =>
  Type.String({ pattern: '^[A-Z]{2}$', description: `${description}: ISO 3166-1 alpha-2`, examples: ['PT'] });

// ---------------------------------------------------------------------------------------------
// Requests

export const OpenSessionBody = Type.Object(
  {
    reservationId: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'the confirmation code of the reservation',
      examples: ['R7K3M9Q2X'],
    }),
    lastName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          "the booker's last name, compared case- and accent-insensitively; omit it when sending " +
          '`Authorization: Bearer <accessToken>` instead',
        examples: ['Silva'],
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ reservationId: 'R7K3M9Q2X', lastName: 'Silva' }, { reservationId: 'R7K3M9Q2X' }],
  },
);
export type OpenSessionBody = Static<typeof OpenSessionBody>;

export const SessionParams = Type.Object({
  session: Type.String({
    description: 'the check-in session id (`cks_…`), a bearer secret',
    examples: ['cks_5n1k0w9x3qj7c2m8d4f6h0r2t4v6y8za'],
  }),
});

const Companion = Type.Object(
  {
    firstName: Name('given name', 'Rui'),
    lastName: Name('family name', 'Silva'),
    dateOfBirth: DateOf('date of birth', '2018-06-14'),
    nationality: Country('nationality'),
  },
  { additionalProperties: false },
);

export const GuestDetailsData = Type.Object(
  {
    firstName: Name('given name', 'Ana'),
    lastName: Name("family name; need not equal the booker's", 'Silva'),
    email: Type.String({
      maxLength: 254,
      pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
      description: 'e-mail address',
      examples: ['ana@example.com'],
    }),
    dateOfBirth: DateOf('date of birth, in the past', '1988-04-02'),
    nationality: Country('nationality'),
    phone: Type.Optional(
      Type.String({
        pattern: '^\\+?[0-9][0-9 ().-]{3,30}$',
        description: 'phone number, preferably E.164',
        examples: ['+351912345678'],
      }),
    ),
    address: Type.Optional(
      Type.Object(
        {
          line1: Type.String({ minLength: 1, maxLength: 200, examples: ['Rua das Flores 12'] }),
          city: Type.String({ minLength: 1, maxLength: 100, examples: ['Lisboa'] }),
          postalCode: Type.String({ minLength: 1, maxLength: 20, examples: ['1200-195'] }),
          country: Country('country'),
        },
        { additionalProperties: false, description: 'home address' },
      ),
    ),
    arrivalTime: Type.Optional(
      Type.String({
        pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
        description: 'expected arrival, hotel-local HH:MM',
        examples: ['16:30'],
      }),
    ),
  },
  { additionalProperties: false, description: 'The main guest' },
);

export const CompanionsData = Type.Object(
  {
    guests: Type.Array(Companion, {
      maxItems: 200,
      description: 'everyone else staying: exactly adults + children − 1 entries',
    }),
  },
  { additionalProperties: false, description: 'The other guests of the party' },
);

export const IdentityDocumentData = Type.Object(
  {
    type: Type.Union(
      [Type.Literal('passport'), Type.Literal('national_id'), Type.Literal('driving_licence')],
      {
        description: 'kind of document',
      },
    ),
    number: Type.String({
      minLength: 3,
      maxLength: 40,
      pattern: '^[A-Za-z0-9][A-Za-z0-9 -]*$',
      description: 'document number; stored encrypted and only ever shown as its last 4 characters',
      examples: ['CA1234567'],
    }),
    issuingCountry: Country('issuing country'),
    expiryDate: DateOf('expiry date, not before check-out', '2031-05-20'),
    image: Type.Optional(
      Type.String({
        maxLength: IDENTITY_BODY_LIMIT,
        description:
          'photo of the document as a data URL, `data:image/jpeg;base64,…` or `data:image/png;base64,…`, ' +
          'at most 5 MiB decoded; stored encrypted, shown as `hasImage: true`',
        examples: ['data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ…'],
      }),
    ),
  },
  { additionalProperties: false, description: "The main guest's identity document" },
);

export const SignatureData = Type.Object(
  {
    acceptTerms: Type.Literal(true, { description: 'must be `true`: the guest accepts the house terms' }),
    signerName: Name('name of the person signing', 'Ana Silva'),
    signature: Type.String({
      minLength: 1,
      maxLength: 700_000,
      description:
        'the drawn signature: a PNG data URL (`data:image/png;base64,…`) or SVG path data (`M10 20 L30 40 …`)',
      examples: ['M10 80 C 40 10, 65 10, 95 80 S 150 150, 180 80'],
    }),
  },
  { additionalProperties: false, description: 'Acceptance of the terms, signed' },
);

export const PaymentData = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'a payment provider token; the balance due is charged to it',
      examples: ['tok_visa'],
    }),
  },
  { additionalProperties: false, description: 'Payment of the balance due' },
);

export const STEP_DATA = {
  guest_details: GuestDetailsData,
  companions: CompanionsData,
  identity_document: IdentityDocumentData,
  signature: SignatureData,
  payment: PaymentData,
} as const;

export const STEP_EXAMPLES = {
  guest_details: {
    firstName: 'Ana',
    lastName: 'Silva',
    email: 'ana@example.com',
    dateOfBirth: '1988-04-02',
    nationality: 'PT',
    phone: '+351912345678',
    address: { line1: 'Rua das Flores 12', city: 'Lisboa', postalCode: '1200-195', country: 'PT' },
    arrivalTime: '16:30',
  },
  companions: {
    guests: [{ firstName: 'Rui', lastName: 'Silva', dateOfBirth: '2018-06-14', nationality: 'PT' }],
  },
  identity_document: {
    type: 'passport',
    number: 'CA1234567',
    issuingCountry: 'PT',
    expiryDate: '2031-05-20',
  },
  signature: {
    acceptTerms: true,
    signerName: 'Ana Silva',
    signature: 'M10 80 C 40 10, 65 10, 95 80 S 150 150, 180 80',
  },
  payment: { token: 'tok_visa' },
} as const;

function envelope<N extends keyof typeof STEP_DATA>(name: N) {
  return Type.Object(
    { step: Type.Literal(name), data: STEP_DATA[name] as (typeof STEP_DATA)[N] },
    { additionalProperties: false, title: name, examples: [{ step: name, data: STEP_EXAMPLES[name] }] },
  );
}

export const STEP_SUBMISSIONS = {
  guest_details: envelope('guest_details'),
  companions: envelope('companions'),
  identity_document: envelope('identity_document'),
  signature: envelope('signature'),
  payment: envelope('payment'),
};

/** The body of a step: a union discriminated by `step`, one `data` schema per step. */
export const StepSubmission = Type.Union(
  STEP_NAMES.map((name) => STEP_SUBMISSIONS[name]) as [
    typeof STEP_SUBMISSIONS.guest_details,
    typeof STEP_SUBMISSIONS.companions,
    typeof STEP_SUBMISSIONS.identity_document,
    typeof STEP_SUBMISSIONS.signature,
    typeof STEP_SUBMISSIONS.payment,
  ],
  {
    discriminator: { propertyName: 'step' },
    description: 'One step of the check-in; `step` decides the shape of `data`.',
    examples: STEP_NAMES.map((name) => ({ step: name, data: STEP_EXAMPLES[name] })),
  },
);
export type StepSubmission = Static<typeof StepSubmission>;

// ---------------------------------------------------------------------------------------------
// Responses: the session as API.md 3.2 shows it

const GuestDetailsView = Type.Object(
  {
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    dateOfBirth: Type.String(),
    nationality: Type.String(),
    phone: Type.Optional(Type.String()),
    address: Type.Optional(
      Type.Object(
        { line1: Type.String(), city: Type.String(), postalCode: Type.String(), country: Type.String() },
        { additionalProperties: false },
      ),
    ),
    arrivalTime: Type.Optional(Type.String()),
  },
  { additionalProperties: false, title: 'guest_details data' },
);

const CompanionsView = Type.Object(
  {
    guests: Type.Array(
      Type.Object(
        {
          firstName: Type.String(),
          lastName: Type.String(),
          dateOfBirth: Type.String(),
          nationality: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'companions data' },
);

const IdentityDocumentView = Type.Object(
  {
    type: Type.String({ examples: ['passport'] }),
    numberLast4: Type.String({
      description: 'the last 4 characters of the document number',
      examples: ['4567'],
    }),
    issuingCountry: Type.String(),
    expiryDate: Type.String(),
    hasImage: Type.Boolean({
      description: 'whether an image was given (the image itself is never returned)',
    }),
  },
  { additionalProperties: false, title: 'identity_document data' },
);

const PurgedView = Type.Object(
  { purged: Type.Literal(true) },
  {
    additionalProperties: false,
    title: 'purged identity data',
    description: 'the identity data was deleted IDENTITY_RETENTION_DAYS after check-out',
  },
);

const SignatureView = Type.Object(
  { acceptTerms: Type.Literal(true), signerName: Type.String(), signed: Type.Literal(true) },
  { additionalProperties: false, title: 'signature data' },
);

const PaymentView = Type.Object(
  { amount: MoneyRef, brand: Type.Optional(Type.String()), last4: Type.Optional(Type.String()) },
  { additionalProperties: false, title: 'payment data' },
);

export const StepView = Type.Object(
  {
    name: Type.Union(STEP_NAMES.map((n) => Type.Literal(n))),
    status: Type.Union([Type.Literal('pending'), Type.Literal('completed'), Type.Literal('skipped')]),
    required: Type.Boolean(),
    data: Type.Optional(
      Type.Union(
        [GuestDetailsView, CompanionsView, IdentityDocumentView, PurgedView, SignatureView, PaymentView],
        {
          description: 'what was accepted, secrets masked; present once the step was submitted',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const SessionView = Type.Object(
  {
    id: Type.String({ description: 'the session id (`cks_…`): a bearer secret', examples: ['cks_…'] }),
    status: Type.Union([Type.Literal('open'), Type.Literal('completed'), Type.Literal('cancelled')], {
      description: '`cancelled` when the reservation was cancelled',
    }),
    expiresAt: Type.String({
      format: 'date-time',
      description: "the check-out date at the hotel's check-out time",
      examples: ['2027-03-04T11:00:00Z'],
    }),
    reservation: Type.Object(
      {
        id: Type.String({ description: 'confirmation code', examples: ['R7K3M9Q2X'] }),
        status: Type.Union([Type.Literal('confirmed'), Type.Literal('cancelled')]),
        hotel: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
        checkIn: Type.String({ format: 'date', examples: ['2027-03-01'] }),
        checkOut: Type.String({ format: 'date', examples: ['2027-03-04'] }),
        nights: Type.Integer(),
        adults: Type.Integer(),
        children: Type.Array(Type.Integer(), { description: 'ages' }),
        rooms: Type.Integer(),
        roomType: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
        guestName: Type.String({ description: "the booker's first and last name", examples: ['Ana Silva'] }),
        total: MoneyRef,
        balanceDue: MoneyRef,
      },
      { additionalProperties: false },
    ),
    steps: Type.Array(StepView),
    nextStep: Type.Union([Type.Union(STEP_NAMES.map((n) => Type.Literal(n))), Type.Null()], {
      description: 'the first pending step; null when none is left (or the session is not open)',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type SessionView = Static<typeof SessionView>;
export type StepView = Static<typeof StepView>;

export const SignedSession = Type.Object(
  {
    session: SessionView,
    signature: Type.String({
      description:
        'compact JWS (EdDSA/Ed25519, `kid` header, `typ` JWT) whose payload is ' +
        '`{ iss, sub: session id, iat, exp: expiresAt, session }`, `session` being exactly the object above; ' +
        'verify it with `GET /.well-known/jwks.json`',
      examples: ['eyJhbGciOiJFZERTQSIsImtpZCI6Ij…'],
    }),
  },
  {
    $id: 'SignedSession',
    additionalProperties: false,
    title: 'SignedSession',
    examples: [
      {
        session: {
          id: 'cks_5n1k0w9x3qj7c2m8d4f6h0r2t4v6y8za',
          status: 'open',
          expiresAt: '2027-03-04T11:00:00Z',
          reservation: {
            id: 'R7K3M9Q2X',
            status: 'confirmed',
            hotel: { id: 'harbour-view', name: 'Harbour View' },
            checkIn: '2027-03-01',
            checkOut: '2027-03-04',
            nights: 3,
            adults: 2,
            children: [7],
            rooms: 1,
            roomType: { id: 'double', name: 'Double Room' },
            guestName: 'Ana Silva',
            total: { amount: 55200, currency: 'EUR' },
            balanceDue: { amount: 55200, currency: 'EUR' },
          },
          steps: [
            { name: 'guest_details', status: 'completed', required: true, data: STEP_EXAMPLES.guest_details },
            { name: 'companions', status: 'pending', required: true },
            { name: 'identity_document', status: 'pending', required: true },
            { name: 'signature', status: 'pending', required: true },
            { name: 'payment', status: 'pending', required: true },
          ],
          nextStep: 'companions',
          createdAt: '2027-02-28T18:02:11Z',
          updatedAt: '2027-02-28T18:04:40Z',
          completedAt: null,
        },
        signature: 'eyJhbGciOiJFZERTQSIsImtpZCI6Ij…',
      },
    ],
  },
);
export type SignedSession = Static<typeof SignedSession>;
