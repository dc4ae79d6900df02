import { Type } from '@sinclair/typebox';
import { CalendarDate } from '../../infra/http/common-schemas.ts';
import { Name as TextName } from '../../infra/http/text-schemas.ts';

/** Field schemas and rules several steps share. */

/** A person's name (API.md section 1: no control or bidirectional control characters). */
export const Name = (description: string, example: string) =>
  TextName({ maxLength: 100, description, examples: [example] });
export const DateOf = (description: string, example: string) =>
  CalendarDate(`${description} (YYYY-MM-DD)`, [example]);
export const Country = (description: string) =>
  Type.String({ pattern: '^[A-Z]{2}$', description: `${description}: ISO 3166-1 alpha-2`, examples: ['PT'] });

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
/** Codes ICU names that are not countries in ISO 3166-1. */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ']);

/** An assigned ISO 3166-1 alpha-2 code (as far as the runtime's ICU data knows). */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && regionNames.of(code) !== code;
}

export function countryProblem(code: string): string | null {
  return isCountryCode(code) ? null : 'is not an ISO 3166-1 alpha-2 country code';
}

/** A birth date is in the past, and after 1900. */
export function birthDateProblem(date: string, today: string): string | null {
  if (date > today) return 'must not be in the future';
  if (date < '1900-01-01') return 'must be after 1900-01-01';
  return null;
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
