import { AppError } from '../../infra/http/problems.ts';

/** An account the caller does not see is `404`, as if it did not exist. */
export const staffNotFound = (id: string) =>
  new AppError('not_found', `No staff account has the id "${id}".`);
