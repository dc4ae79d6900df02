import { type StringOptions, Type } from '@sinclair/typebox';

/**
 * Names and free text (API.md section 1): Unicode, but no control characters (C0, DEL, C1), no
 * unpaired surrogates, no bidirectional controls U+202A–U+202E and U+2066–U+2069 (which can make
 * `Ana‮gnp.exe‬` show at the desk as "Anaexe.png") and no character that renders as nothing
 * (`INVISIBLE` below), so two names that look alike are alike. Free text keeps tab, line feed and
 * carriage return (a guest's special requests may take several lines); names keep none.
 *
 * One pattern, read the same by every engine that reads it: Ajv (the routes, unicode mode),
 * TypeBox (a check-in step's data, the catalogue: no unicode flag), fast-check (the fuzz tests
 * generate strings from it: no lookahead) and tools that read the OpenAPI document (ECMA-262; a
 * Python `re` too). So no `\u{…}` escape and no range over astral characters: a string is a run of
 * allowed characters, each either one UTF-16 unit outside the surrogates, or a surrogate pair
 * (without the unicode flag) — and the tag characters U+E0000–U+E007F are refused by listing
 * each one (as itself: in unicode mode and in Python one code point, without the unicode flag two
 * surrogates already refused) in the class of refused characters, plus, for engines that see
 * surrogate pairs, by refusing the pairs that spell them (lead U+DB40, trail U+DC00–U+DC7F).
 */
const CONTROLS = '\\u0000-\\u001F\\u007F-\\u009F';
const FREE_TEXT_CONTROLS = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F';
const BIDI_CONTROLS = '\\u202A-\\u202E\\u2066-\\u2069';
/**
 * Characters that render as nothing: soft hyphen, combining grapheme joiner, Arabic letter mark,
 * Hangul fillers, Khmer inherent vowels, Mongolian free variation selectors and vowel separator,
 * zero-width space / non-joiner / joiner and the directional marks, line and paragraph separators,
 * word joiner and invisible operators (and the unassigned and deprecated format characters around
 * the isolates), the byte order mark, the halfwidth Hangul filler, interlinear annotation controls.
 */
const INVISIBLE =
  '\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u2028\\u2029' +
  '\\u2060-\\u2065\\u206A-\\u206F\\u3164\\uFEFF\\uFFA0\\uFFF9-\\uFFFB';
/** U+E0000–U+E007F, each as itself (a range over them would not compile without the unicode flag). */
const TAGS = Array.from({ length: 0x80 }, (_, i) => String.fromCodePoint(0xe0000 + i)).join('');
const SURROGATES = '\\uD800-\\uDFFF';
/** A surrogate pair that is not a tag character (engines without the unicode flag). */
const PAIR = '[\\uD800-\\uDB3F\\uDB41-\\uDBFF][\\uDC00-\\uDFFF]|\\uDB40[\\uDC80-\\uDFFF]';

const one = (refused: string) => `(?:[^${refused}${SURROGATES}${TAGS}]|${PAIR})`;
const NAME_REFUSED = `${CONTROLS}${BIDI_CONTROLS}${INVISIBLE}`;
const NAME_CHAR = one(NAME_REFUSED);
/** A name's character that is not white space (a surrogate pair never is). */
const NAME_MARK = one(`${NAME_REFUSED}\\s`);
const FREE_TEXT_CHAR = one(`${FREE_TEXT_CONTROLS}${BIDI_CONTROLS}${INVISIBLE}`);

/**
 * A name: not blank (one character that is neither refused nor white space), no control,
 * bidirectional control or invisible character. No lookahead: the fuzz tests generate strings from patterns.
 */
export const NAME_PATTERN = `^${NAME_CHAR}*${NAME_MARK}${NAME_CHAR}*$`;
/** A name as typed to be compared (a proof), blank allowed: no control, bidirectional control or invisible character. */
export const NAME_CHARACTERS_PATTERN = `^${NAME_CHAR}*$`;
/** Free text: no control character but tab, LF and CR; no bidirectional control or invisible character. */
export const FREE_TEXT_PATTERN = `^${FREE_TEXT_CHAR}*$`;
/**
 * Any other string of a body (ids, tokens, URLs): no U+0000 and no unpaired surrogate, which no
 * database stores (`unstorable-json.ts` refuses them in every body; this says so in the schema).
 */
export const STORABLE_PATTERN = `^(?:[^\\u0000${SURROGATES}]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$`;

/**
 * An e-mail address as the service takes it: Ajv's `email` format ("full" mode, ajv-formats),
 * which asks for a dot in the domain where JSON Schema's `email` (RFC 5321) does not, and takes no
 * quoted local part and no non-ASCII; said as a pattern so tools reading the document know it.
 */
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
export const EMAIL_PATTERN = `^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+${LABEL}$`;

/**
 * The `Idempotency-Key` rule of `parseIdempotencyKey` as a pattern, so the document says it: a bare
 * value (not starting with `"`, no control character), or a structured-field string, `"k-123"`:
 * printable ASCII with `\"` and `\\` the only escapes, not empty.
 */
export const IDEMPOTENCY_KEY_PATTERN =
  '^(?:[^"\\u0000-\\u0008\\u000A-\\u001F\\u007F][^\\u0000-\\u0008\\u000A-\\u001F\\u007F]*' +
  '|"(?:[\\u0020\\u0021\\u0023-\\u005B\\u005D-\\u007E]|\\\\["\\\\])+")$';

const REFUSED_TEXT =
  'control characters, bidirectional controls (U+202A–U+202E, U+2066–U+2069) or characters that render as nothing (U+200B–U+200F, U+2028, U+2029, U+00AD, U+3164, tag characters, …)';

/** What a validation error says for each pattern, instead of the pattern itself. */
export const TEXT_PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [NAME_PATTERN]: `must not be blank, nor contain ${REFUSED_TEXT}`,
  [NAME_CHARACTERS_PATTERN]: `must not contain ${REFUSED_TEXT}`,
  [FREE_TEXT_PATTERN]: `must not contain ${REFUSED_TEXT.replace('control characters', 'control characters other than tab and line breaks')}`,
  [STORABLE_PATTERN]: 'must not contain U+0000 or unpaired surrogates',
  [EMAIL_PATTERN]: 'must match format "email"',
  [IDEMPOTENCY_KEY_PATTERN]:
    'must be bare (not starting with ") or a quoted structured-field string, without control characters',
};

/** A person's or thing's name (1–`maxLength` characters). */
export function Name(options: StringOptions & { maxLength: number }) {
  return Type.String({ minLength: 1, ...options, pattern: NAME_PATTERN });
}

/** Free text: notes, requests, reasons, descriptions (up to `maxLength` characters). */
export function FreeText(options: StringOptions & { maxLength: number }) {
  return Type.String({ ...options, pattern: FREE_TEXT_PATTERN });
}

/** Any other string of a request body: an id, a token, a URL (no U+0000, no unpaired surrogate). */
export function StorableString(options: StringOptions = {}) {
  return Type.String({ ...options, pattern: options.pattern ?? STORABLE_PATTERN });
}
