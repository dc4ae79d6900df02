import { AppError, invalid } from '../../infra/http/problems.ts';
import { hashPassword } from '../password-hash.ts';
import { passwordWeakness } from '../rules/password-strength.ts';

/** A password's strength checked (`400` at `path`), then hashed: never logged, never repeated. */
export async function strongHash(password: string, context: string[], path: string): Promise<string> {
  const weakness = passwordWeakness(password, context);
  if (weakness) throw invalid(path, weakness);
  return hashPassword(password);
}

/** An unknown, used or expired invitation or reset link: one answer for all. */
export const linkRefused = () =>
  new AppError('not_found', 'This link is unknown, used or expired; ask for a new one.');
