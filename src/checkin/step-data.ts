import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type ValueError, ValueErrorType } from '@sinclair/typebox/compiler';
import type { ProblemDetailEntry } from '../infra/http/problems.ts';
import {
  type CompanionsData,
  type GuestDetailsData,
  type IdentityDocumentData,
  MAX_IMAGE_BYTES,
  type PaymentData,
  type SignatureData,
  STEP_SUBMISSIONS,
  type StepView,
} from './checkin.schemas.ts';
import { STEP_NAMES, type StepName } from './steps.ts';

/**
 * What a step submission turns into: the masked `data` the session shows, and the secrets that are
 * only ever stored encrypted. Pure: no database, no HTTP.
 */
export interface AcceptedStep {
  view: NonNullable<StepView['data']> | null;
  /** Encrypted at rest (document number, drawn signature); never returned. */
  secret: Record<string, unknown> | null;
  /** Encrypted at rest (document image bytes); never returned. */
  attachment: Buffer | null;
}

/** Facts of the reservation that step rules check against. */
export interface StepRules {
  partySize: number;
  checkOut: string;
  /** hotel-local date today */
  today: string;
  recognisesPaymentToken(token: string): boolean;
}

const checkers = Object.fromEntries(
  STEP_NAMES.map((name) => [name, TypeCompiler.Compile(STEP_SUBMISSIONS[name])]),
) as unknown as Record<StepName, { Errors(value: unknown): Iterable<ValueError> }>;

function describeSchemaError(error: ValueError): string {
  const schema = error.schema as TSchema & Record<string, unknown>;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not a known field';
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(schema.const)}`;
    case ValueErrorType.Union: {
      const options = ((schema.anyOf ?? []) as Array<{ const?: unknown }>).map((s) => s.const);
      return options.every((o) => o !== undefined)
        ? `must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`
        : 'is invalid';
    }
    case ValueErrorType.String:
      return 'must be a string';
    case ValueErrorType.Object:
      return 'must be an object';
    case ValueErrorType.Array:
      return 'must be an array';
    case ValueErrorType.StringMinLength:
      return `must be at least ${schema.minLength} characters`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${schema.maxLength} characters`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${schema.maxItems} entries`;
    case ValueErrorType.StringFormat:
      return schema.format === 'date' ? 'must be a calendar date YYYY-MM-DD' : `must be a ${schema.format}`;
    case ValueErrorType.StringPattern:
      return typeof schema.description === 'string'
        ? `is not in the expected format (${schema.description})`
        : 'is not in the expected format';
    default:
      return error.message.charAt(0).toLowerCase() + error.message.slice(1);
  }
}

/** Schema errors of a step body, one entry per JSON-pointer path (the first complaint for each). */
export function schemaErrors(step: StepName, body: unknown): ProblemDetailEntry[] {
  const seen = new Set<string>();
  const entries: ProblemDetailEntry[] = [];
  for (const error of checkers[step].Errors(body)) {
    const path = error.path || '/';
    if (seen.has(path)) continue;
    seen.add(path);
    entries.push({ path, message: describeSchemaError(error) });
  }
  return entries;
}

// ---------------------------------------------------------------------------------------------

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
/** Codes ICU names that are not countries in ISO 3166-1. */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ']);

/** An assigned ISO 3166-1 alpha-2 code (as far as the runtime's ICU data knows). */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && regionNames.of(code) !== code;
}

const IMAGE_TYPES = {
  'image/jpeg': { label: 'JPEG', magic: Buffer.from([0xff, 0xd8, 0xff]) },
  'image/png': { label: 'PNG', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
} as const;
export type ImageType = keyof typeof IMAGE_TYPES;

const DATA_URL = /^data:(image\/(?:jpeg|png));base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * Decodes a base64 image data URL, checking that the bytes really are the declared JPEG or PNG
 * (by their magic number) and not over `maxBytes`. Returns an error message instead on any fault.
 */
export function decodeImageDataUrl(
  value: string,
  allowed: readonly ImageType[],
  maxBytes: number,
): { type: ImageType; bytes: Buffer } | { error: string } {
  const kinds = allowed.map((t) => `data:${t};base64,…`).join(' or ');
  const match = DATA_URL.exec(value);
  const type = match?.[1] as ImageType | undefined;
  if (!match || !type || !allowed.includes(type) || match[2] === undefined || match[2].length % 4 !== 0) {
    return { error: `must be a base64 data URL: ${kinds}` };
  }
  if (Math.floor((match[2].length * 3) / 4) - 2 > maxBytes) {
    return { error: `must be at most ${maxBytes / (1024 * 1024)} MiB` };
  }
  const bytes = Buffer.from(match[2], 'base64');
  if (bytes.length > maxBytes) return { error: `must be at most ${maxBytes / (1024 * 1024)} MiB` };
  const { label, magic } = IMAGE_TYPES[type];
  if (bytes.length < magic.length || !bytes.subarray(0, magic.length).equals(magic)) {
    return { error: `is not a ${label} image` };
  }
  return { type, bytes };
}

/** SVG path data as a drawing pad produces it: starts with a move-to, only path commands and numbers. */
const SVG_PATH = /^[Mm][\sMmLlHhVvCcSsQqTtAaZz0-9.,+eE-]*$/;
const MAX_SIGNATURE_IMAGE_BYTES = 512 * 1024;

// ---------------------------------------------------------------------------------------------

function birthDateProblem(date: string, today: string): string | null {
  if (date > today) return 'must not be in the future';
  if (date < '1900-01-01') return 'must be after 1900-01-01';
  return null;
}

/**
 * Applies a step's rules beyond its schema (API.md 3.3) and splits the data into what the session
 * shows and what is stored encrypted. Returns every problem found, with JSON-pointer paths.
 */
export function acceptStepData(
  step: StepName,
  data: unknown,
  rules: StepRules,
): { ok: true; accepted: AcceptedStep } | { ok: false; errors: ProblemDetailEntry[] } {
  const errors: ProblemDetailEntry[] = [];
  const problem = (path: string, message: string) => errors.push({ path: `/data${path}`, message });
  const country = (path: string, code: string) => {
    if (!isCountryCode(code)) problem(path, 'is not an ISO 3166-1 alpha-2 country code');
  };
  let accepted: AcceptedStep = { view: null, secret: null, attachment: null };

  switch (step) {
    case 'guest_details': {
      const d = data as Static<typeof GuestDetailsData>;
      const birth = birthDateProblem(d.dateOfBirth, rules.today);
      if (birth) problem('/dateOfBirth', birth);
      country('/nationality', d.nationality);
      if (d.address) country('/address/country', d.address.country);
      accepted = { view: d, secret: null, attachment: null };
      break;
    }
    case 'companions': {
      const d = data as Static<typeof CompanionsData>;
      const expected = rules.partySize - 1;
      if (d.guests.length !== expected) {
        problem(
          '/guests',
          `must have exactly ${expected} ${expected === 1 ? 'entry' : 'entries'} (adults + children − 1)`,
        );
      }
      d.guests.forEach((guest, i) => {
        const birth = birthDateProblem(guest.dateOfBirth, rules.today);
        if (birth) problem(`/guests/${i}/dateOfBirth`, birth);
        country(`/guests/${i}/nationality`, guest.nationality);
      });
      accepted = { view: d, secret: null, attachment: null };
      break;
    }
    case 'identity_document': {
      const d = data as Static<typeof IdentityDocumentData>;
      country('/issuingCountry', d.issuingCountry);
      if (d.expiryDate < rules.checkOut)
        problem('/expiryDate', `must not be before check-out (${rules.checkOut})`);
      let image: { type: ImageType; bytes: Buffer } | null = null;
      if (d.image !== undefined) {
        const decoded = decodeImageDataUrl(d.image, ['image/jpeg', 'image/png'], MAX_IMAGE_BYTES);
        if ('error' in decoded) problem('/image', decoded.error);
        else image = decoded;
      }
      const number = d.number.trim();
      accepted = {
        view: {
          type: d.type,
          numberLast4: number.slice(-4),
          issuingCountry: d.issuingCountry,
          expiryDate: d.expiryDate,
          hasImage: image !== null,
        },
        secret: { number, ...(image ? { imageType: image.type } : {}) },
        attachment: image?.bytes ?? null,
      };
      break;
    }
    case 'signature': {
      const d = data as Static<typeof SignatureData>;
      if (d.signature.startsWith('data:')) {
        const decoded = decodeImageDataUrl(d.signature, ['image/png'], MAX_SIGNATURE_IMAGE_BYTES);
        if ('error' in decoded) problem('/signature', decoded.error);
      } else if (!SVG_PATH.test(d.signature) || !/\d/.test(d.signature)) {
        problem('/signature', 'must be a PNG data URL (data:image/png;base64,…) or SVG path data (M…)');
      }
      if (!d.signerName.trim()) problem('/signerName', 'must not be blank');
      accepted = {
        view: { acceptTerms: true, signerName: d.signerName, signed: true },
        secret: { signature: d.signature },
        attachment: null,
      };
      break;
    }
    case 'payment': {
      const d = data as Static<typeof PaymentData>;
      if (!rules.recognisesPaymentToken(d.token))
        problem('/token', 'is not a payment token this service accepts');
      break;
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, accepted };
}
