import { type Static, type TOptional, type TString, Type } from '@sinclair/typebox';
import { NAME_CHARACTERS_PATTERN } from '../infra/http/text-schemas.ts';
import { LANGUAGES, type Language } from '../infra/i18n/languages.ts';

/** A name per language, as a catalogue file may give it: `{ "en": "Double Room", "es": … }`. */
export type LocalizedNames = Partial<Record<Language, string>>;

/** `"en", "es" or "pt"`: the languages a catalogue may name things in (API.md 9), as a hotel reads them. */
const LANGUAGE_CHOICE = `${LANGUAGES.slice(0, -1)
  .map((l) => `"${l}"`)
  .join(', ')} or "${LANGUAGES.at(-1)}"`;

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
        Object.fromEntries(LANGUAGES.map((l) => [l, Type.Optional(text)])) as unknown as Record<
          Language,
          TOptional<T>
        >,
        {
          additionalProperties: false,
          minProperties: 1,
          // What a hotel reads for an object that names no language, or a wrong one.
          errorMessage: {
            additionalProperties: `is not a language ${noun}s may be given in: use ${LANGUAGE_CHOICE}`,
            minProperties: `must give the ${noun} in at least one language: ${LANGUAGE_CHOICE}`,
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
  for (const lang of LANGUAGES) if (name[lang] !== undefined) names[lang] = name[lang];
  // The first given in the file's own order.
  const first = Object.values(name).find((value) => typeof value === 'string') ?? '';
  return { name: names.en ?? first, names };
}

/** The entity's name in `lang`, else its plain name (API.md 9): the one way to name a catalogue thing. */
export function nameIn(entity: { name: string; names?: LocalizedNames }, lang: Language | null): string {
  return (lang && entity.names?.[lang]) ?? entity.name;
}
