import { type Static, type TLiteral, type TObject, Type } from '@sinclair/typebox';
import { MoneyRef } from '../infra/http/common-schemas.ts';
import { NAME_CHARACTERS_PATTERN, StorableString } from '../infra/http/text-schemas.ts';
import { guestDetails } from './steps/guest-details.ts';
import { STEP_NAMES, STEPS } from './steps/index.ts';

// ---------------------------------------------------------------------------------------------
// Requests

export const OpenSessionBody = Type.Object(
  {
    reservationId: StorableString({
      minLength: 1,
      maxLength: 64,
      description: 'the confirmation code of the reservation',
      examples: ['R7K3M9Q2X'],
    }),
    lastName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: NAME_CHARACTERS_PATTERN,
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

type Steps = typeof STEPS;
/** The body of one step: `{ step, data }`, `data` being that step's schema. */
type Envelope<S extends Steps[number]> = TObject<{ step: TLiteral<S['name']>; data: S['data'] }>;
type EnvelopesOf<T extends readonly Steps[number][]> = {
  -readonly [K in keyof T]: T[K] extends Steps[number] ? Envelope<T[K]> : never;
};
type Envelopes = EnvelopesOf<Steps>;

function envelope<S extends Steps[number]>(step: S): Envelope<S> {
  return Type.Object(
    { step: Type.Literal(step.name), data: step.data },
    {
      additionalProperties: false,
      title: step.name,
      examples: [{ step: step.name, data: step.example }],
    },
  ) as unknown as Envelope<S>;
}

const ENVELOPES = STEPS.map(envelope) as unknown as Envelopes;

/** Each step's body schema, by name (the step's `data` is checked against it after the order rules). */
export const STEP_SUBMISSIONS = Object.fromEntries(ENVELOPES.map((e, i) => [STEPS[i]?.name, e])) as {
  [S in Steps[number] as S['name']]: Envelope<S>;
};

/**
 * The body of a step: a union told apart by `step`, one `data` schema per step. No OpenAPI
 * `discriminator`: it can only select named (`$ref`) schemas, and Redocly's recommended rules warn
 * on one over inline ones; each envelope's `step` is a single-value `const`, which tools and the
 * generated TypeScript types narrow on just the same.
 */
export const StepSubmission = Type.Union(ENVELOPES, {
  description: 'One step of the check-in; `step` decides the shape of `data`.',
  examples: STEPS.map((s) => ({ step: s.name, data: s.example })),
});
export type StepSubmission = Static<typeof StepSubmission>;

// ---------------------------------------------------------------------------------------------
// Responses: the session as API.md 3.2 shows it

export const StepView = Type.Object(
  {
    name: Type.Union(STEP_NAMES.map((n) => Type.Literal(n))),
    status: Type.Union([Type.Literal('pending'), Type.Literal('completed'), Type.Literal('skipped')]),
    required: Type.Boolean(),
    data: Type.Optional(
      Type.Union(
        STEPS.flatMap((s) => s.views),
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
        guestEmail: Type.String({
          description: "the booker's e-mail, which the guest_details step may keep or change",
          examples: ['ana@example.com'],
        }),
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

export const CheckinProgress = Type.Object(
  {
    status: Type.Union([Type.Literal('not_started'), Type.Literal('in_progress'), Type.Literal('completed')]),
    completedAt: Type.Optional(Type.String({ format: 'date-time', description: 'once completed' })),
    steps: Type.Array(StepView, {
      description:
        'the session’s steps, data masked as the guest sees it (docs/api.md §3.2); empty before a session exists',
    }),
  },
  {
    description:
      'Check-in progress for the hotel (docs/api.md §7.2). Never the session id: it is the guest’s bearer secret.',
  },
);
export type CheckinProgress = Static<typeof CheckinProgress>;

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
            guestEmail: 'ana@example.com',
            total: { amount: 55200, currency: 'EUR' },
            balanceDue: { amount: 55200, currency: 'EUR' },
          },
          steps: [
            { name: 'guest_details', status: 'completed', required: true, data: guestDetails.example },
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
