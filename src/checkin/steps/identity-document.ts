import { Type } from '@sinclair/typebox';
import { StorableString } from '../../infra/http/text-schemas.ts';
import { Country, countryProblem, DateOf, decodeImageDataUrl, type ImageType } from './fields.ts';
import { defineStep } from './step.ts';

/** Largest decoded document image. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The identity document step carries an image; every other step keeps the service's 1 MiB limit. */
export const IDENTITY_BODY_LIMIT = 8 * 1024 * 1024;

const IdentityDocumentData = Type.Object(
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
      StorableString({
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

/**
 * The main guest's document: the number and image are stored encrypted, the session shows the
 * last 4 characters and whether there is an image; the identity purge replaces the view with
 * `{ purged: true }` (`purge.ts`).
 */
export const identityDocument = defineStep({
  name: 'identity_document',
  data: IdentityDocumentData,
  example: {
    type: 'passport',
    number: 'CA1234567',
    issuingCountry: 'PT',
    expiryDate: '2031-05-20',
  },
  views: [IdentityDocumentView, PurgedView],
  accept(d, rules, problem) {
    const country = countryProblem(d.issuingCountry);
    if (country) problem('/issuingCountry', country);
    if (d.expiryDate < rules.checkOut)
      problem('/expiryDate', `must not be before check-out (${rules.checkOut})`);
    let image: { type: ImageType; bytes: Buffer } | null = null;
    if (d.image !== undefined) {
      const decoded = decodeImageDataUrl(d.image, ['image/jpeg', 'image/png'], MAX_IMAGE_BYTES);
      if ('error' in decoded) problem('/image', decoded.error);
      else image = decoded;
    }
    const number = d.number.trim();
    return {
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
  },
});
