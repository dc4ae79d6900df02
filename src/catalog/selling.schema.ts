import { type Static, Type } from '@sinclair/typebox';
import { FreeText, Name } from '../infra/http/text-schemas.ts';
import { localizedText, type Named } from './localized-name.ts';

/**
 * What sells a hotel and its rooms (API.md 9.1): descriptions, photos, beds, size, amenities,
 * the address and location. Texts are given as names are: a string, or by language.
 */

/** The amenities a room type may list (docs/api.md §9.1): the page shows each as an icon with text. */
export const AMENITIES = [
  'wifi',
  'air_conditioning',
  'heating',
  'balcony',
  'terrace',
  'sea_view',
  'city_view',
  'garden_view',
  'bathtub',
  'walk_in_shower',
  'kitchenette',
  'minibar',
  'coffee_maker',
  'tv',
  'desk',
  'safe',
  'hairdryer',
  'step_free_access',
  'non_smoking',
  'soundproofing',
  'washing_machine',
  'pets_allowed',
] as const;
export type Amenity = (typeof AMENITIES)[number];

export const BED_TYPES = ['single', 'double', 'queen', 'king', 'sofa_bed', 'bunk'] as const;
export type BedType = (typeof BED_TYPES)[number];

export const CatalogDescription = localizedText(
  FreeText({ minLength: 1, maxLength: 4000 }),
  'text',
  'a description ("Quiet room over the garden.") or descriptions by language ({ "en": "…", "es": "…", "pt": "…" })',
  'a text, or texts by language',
);
const CatalogAlt = localizedText(
  Name({ maxLength: 300 }),
  'text',
  'a text ("The double room from the door") or texts by language ({ "en": "…", "es": "…" })',
  "a photo's alternative text, or texts by language",
);
const CatalogAddress = localizedText(
  FreeText({ minLength: 1, maxLength: 500 }),
  'text',
  'an address ("Rua do Cais 12, 1200-001 Lisboa, Portugal") or addresses by language',
  "the hotel's postal address, or by language",
);

/** A photo: a file beside the catalogue (served by the service in sizes) or an `https` URL passed through. */
export const PhotoDef = Type.Union([
  Type.Object({
    file: Type.String({
      minLength: 1,
      maxLength: 500,
      pattern: '^[^\\u0000-\\u001F]+$',
      description: 'an image file (JPEG, PNG, WebP, AVIF, GIF, TIFF), relative to the catalogue file',
    }),
    alt: Type.Optional(CatalogAlt),
  }),
  Type.Object({
    url: Type.String({ maxLength: 2000, pattern: '^https://[^\\s"<>]+$', description: 'an https URL' }),
    alt: Type.Optional(CatalogAlt),
  }),
]);

const Photos = Type.Array(PhotoDef, { maxItems: 30 });

export const BedDef = Type.Object({
  type: Type.Union(BED_TYPES.map((t) => Type.Literal(t))),
  count: Type.Integer({ minimum: 1, maximum: 20 }),
});

/** What a room type may add to sell itself. */
export const roomTypeSelling = {
  description: Type.Optional(CatalogDescription),
  photos: Type.Optional(Photos),
  sizeM2: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'square metres' })),
  beds: Type.Optional(Type.Array(BedDef, { maxItems: 10 })),
  amenities: Type.Optional(
    Type.Array(Type.Union(AMENITIES.map((a) => Type.Literal(a))), { maxItems: AMENITIES.length }),
  ),
};

/** What a hotel may add to sell itself. */
export const hotelSelling = {
  description: Type.Optional(CatalogDescription),
  photos: Type.Optional(Photos),
  address: Type.Optional(CatalogAddress),
  location: Type.Optional(
    Type.Object({
      lat: Type.Number({ minimum: -90, maximum: 90 }),
      lon: Type.Number({ minimum: -180, maximum: 180 }),
    }),
  ),
};

export type PhotoDef = Static<typeof PhotoDef>;
export type BedDef = Static<typeof BedDef>;

/** A catalogue photo file once checked at start: where it is, its content hash and its size. */
export type PhotoFile = { path: string; hash: string; width: number; height: number };

/** A photo as the catalogue keeps it: its file (checked) or URL, and its alternative text. */
export type Photo = { file?: PhotoFile; url?: string; alt?: Named };

/** A room type's or hotel's selling fields as loaded (texts as names are kept). */
export type RoomTypeSelling = {
  description?: Named;
  photos?: Photo[];
  sizeM2?: number;
  beds?: BedDef[];
  amenities?: Amenity[];
};
export type HotelSelling = {
  description?: Named;
  photos?: Photo[];
  address?: Named;
  location?: { lat: number; lon: number };
};
