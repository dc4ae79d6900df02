import { type StringOptions, Type } from '@sinclair/typebox';

/**
 * Names and free text (API.md section 1): Unicode, but no control characters (C0, DEL, C1) and
 * no bidirectional controls U+202A–U+202E and U+2066–U+2069, which can make `Ana‮gnp.exe‬` show
 * at the desk as "Anaexe.png". Free text keeps tab, line feed and carriage return (a guest's
 * special requests may take several lines); names keep none. Unpaired surrogates and U+0000 are
 * refused for every string of every body (`unstorable-json.ts`).
 */
const BIDI_CONTROLS = '\\u202A-\\u202E\\u2066-\\u2069';
const NAME_REFUSED = `\\u0000-\\u001F\\u007F-\\u009F${BIDI_CONTROLS}`;
const FREE_TEXT_REFUSED = `\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F${BIDI_CONTROLS}`;

/**
 * A name: not blank (one character that is neither refused nor white space), no control or
 * bidirectional control character. No lookahead: the fuzz tests generate strings from patterns.
 */
export const NAME_PATTERN = `^[^${NAME_REFUSED}]*[^${NAME_REFUSED}\\s][^${NAME_REFUSED}]*$`;
/** A name as typed to be compared (a proof), blank allowed: no control or bidirectional control character. */
export const NAME_CHARACTERS_PATTERN = `^[^${NAME_REFUSED}]*$`;
/** Free text: no control character but tab, LF and CR; no bidirectional control character. */
export const FREE_TEXT_PATTERN = `^[^${FREE_TEXT_REFUSED}]*$`;

/** What a validation error says for each pattern, instead of the pattern itself. */
export const TEXT_PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [NAME_PATTERN]:
    'must not be blank, nor contain control characters or bidirectional controls (U+202A–U+202E, U+2066–U+2069)',
  [NAME_CHARACTERS_PATTERN]:
    'must not contain control characters or bidirectional controls (U+202A–U+202E, U+2066–U+2069)',
  [FREE_TEXT_PATTERN]:
    'must not contain control characters other than tab and line breaks, nor bidirectional controls (U+202A–U+202E, U+2066–U+2069)',
};

/** A person's or thing's name (1–`maxLength` characters). */
export function Name(options: StringOptions & { maxLength: number }) {
  return Type.String({ minLength: 1, ...options, pattern: NAME_PATTERN });
}

/** Free text: notes, requests, reasons, descriptions (up to `maxLength` characters). */
export function FreeText(options: StringOptions & { maxLength: number }) {
  return Type.String({ ...options, pattern: FREE_TEXT_PATTERN });
}
