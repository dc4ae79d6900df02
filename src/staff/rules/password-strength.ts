import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';

/** API.md 12: 12–256 characters, and a zxcvbn score of at least 3. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;
export const PASSWORD_MIN_SCORE = 3;

let estimator: ZxcvbnFactory | null = null;

/** Built on first use: the dictionaries take a moment to index, and most processes never need them. */
function zxcvbn(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    translations,
    graphs: adjacencyGraphs,
    dictionary: { ...commonDictionary, ...englishDictionary },
  });
  return estimator;
}

/**
 * Why a password is refused, or null when it is strong enough. `context` holds what the password
 * must not be built from (the person's e-mail and name). The message never repeats the password.
 */
export function passwordWeakness(password: string, context: readonly string[] = []): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    return `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`;
  }
  const inputs = context.flatMap((c) => [c, ...c.split(/[@.\s]+/)]).filter((c) => c.length >= 3);
  const result = zxcvbn().check(password, inputs);
  if (result.score >= PASSWORD_MIN_SCORE) return null;
  const hint = result.feedback.warning ? ` (${result.feedback.warning})` : '';
  return `is too easy to guess: it scores ${result.score} of 4, and at least ${PASSWORD_MIN_SCORE} is needed${hint}`;
}
