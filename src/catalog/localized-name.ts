import { type Static, type TString, Type } from '@sinclair/typebox';
import { NAME_CHARACTERS_PATTERN } from '../infra/http/text-schemas.ts';

/** The languages a catalogue may name things in (API.md 9): those the pages and messages speak. */
export const NAME_LANGUAGES = ['en', 'es', 'pt'] as const;
export type NameLanguage = (typeof NAME_LANGUAGES)[number];

/** A name per language, as a catalogue file may give it: `{ "en": "Double Room", "es": … }`. */
export type LocalizedNames = { en?: string; es?: string; pt?: string };

/**
 * One name: the characters of the names rule of API.md 1 (`NAME_CHARACTERS_PATTERN`: no control
 * character, CR and LF included, no bidirectional or invisible character), since names go out in
 * e-mails, pages and the iCal export.
 */
const NameText = Type.String({ minLength: 1, pattern: NAME_CHARACTERS_PATTERN });

/**
 * A catalogue text (API.md 9, 9.1): `text` as a plain string, or an object of texts by language.
 * The schema carries `localizedName` so the catalogue's validation can say which form went wrong,
 * and `errorMessage` for what it says (see `infra/http/schema-errors.ts`).
 */
export function localizedText<T extends TString>(
  text: T,
  noun: 'name' | 'text',
  example: string,
  description: string,
) {
  return Type.Union(
    [
      text,
      Type.Object(
        { en: Type.Optional(text), es: Type.Optional(text), pt: Type.Optional(text) },
        {
          additionalProperties: false,
          minProperties: 1,
          // What a hotel reads for an object that names no language, or a wrong one.
          errorMessage: {
            additionalProperties: `is not a language ${noun}s may be given in: use "en", "es" or "pt"`,
            minProperties: `must give the ${noun} in at least one language: "en", "es" or "pt"`,
          },
        },
      ),
    ],
    { localizedName: true, errorMessage: `must be ${example}`, description },
  );
}

/** A catalogue name (API.md 9): a plain string, or an object of names by language. */
export const CatalogName = localizedText(
  NameText,
  'name',
  'a name ("Double Room") or names by language ({ "en": "Double Room", "es": "Habitación doble", "pt": "Quarto duplo" })',
  'a name, or names by language: { "en": "Double Room", "es": "Habitación doble" }',
);
export type CatalogName = Static<typeof CatalogName>;

/** What the in-memory catalogue keeps of a name: the plain one, and the others by language. */
export type Named = { name: string; names?: LocalizedNames };

/**
 * A name as the catalogue keeps it: `name` is the plain string, or the English one, else the first
 * one given; `names` (only for the object form) holds every language given.
 */
export function loadName(name: CatalogName): Named {
  if (typeof name === 'string') return { name };
  const names: LocalizedNames = {};
  for (const lang of NAME_LANGUAGES) if (name[lang] !== undefined) names[lang] = name[lang];
  // The first given in the file's own order.
  const first = Object.values(name).find((value) => typeof value === 'string') ?? '';
  return { name: names.en ?? first, names };
}

/** The entity's name in `lang` (`en`, `es`, `pt`), else its plain name (API.md 9). */
export function nameIn(entity: { name: string; names?: LocalizedNames }, lang: string): string {
  return entity.names?.[lang as NameLanguage] ?? entity.name;
}
