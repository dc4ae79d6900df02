import { DatabaseUnavailableError, sqlState } from '../db/database.ts';
import type { ProblemCode } from './problems.ts';

/**
 * The one map from what the database refused to what the client is told. The database guards the
 * invariants (see migrations/); a constraint named here is the client's conflict, not our fault.
 */
const CONSTRAINT_PROBLEMS: Record<string, { code: ProblemCode; detail: string }> = {
  // A quote becomes at most one reservation: a concurrent booking of the same quote lost.
  reservations_quote_id_key: {
    code: 'quote_already_used',
    detail: 'This quote already became a reservation; retry with the same Idempotency-Key to get it again.',
  },
  // An invoice is corrected by one credit note: a concurrent second one lost (migration 090).
  invoices_one_correction: {
    code: 'already_corrected',
    detail: 'This invoice already has a credit note.',
  },
};

/** The name of the constraint a statement violated (23xxx), on both engines. */
export function violatedConstraint(error: unknown): string | undefined {
  const state = sqlState(error);
  if (!state?.startsWith('23')) return undefined;
  const named = (error as { constraint?: unknown }).constraint;
  if (typeof named === 'string' && named) return named;
  return /constraint "([^"]+)"/.exec((error as Error).message ?? '')?.[1];
}

/** The problem a violated constraint means, if it is one the client can cause. */
export function constraintProblem(error: unknown): { code: ProblemCode; detail: string } | undefined {
  const constraint = violatedConstraint(error);
  if (constraint === undefined) return undefined;
  // On Citus a shard's constraint carries the shard's number (reservations_quote_id_key_102008).
  return CONSTRAINT_PROBLEMS[constraint] ?? CONSTRAINT_PROBLEMS[constraint.replace(/_\d+$/, '')];
}

/** Errors of the database driver that mean "the database is not reachable", not "bad input". */
export function isDatabaseUnavailable(error: unknown): boolean {
  // Refused or failed connections, whatever their SQLSTATE (see postgres.ts).
  if (error instanceof DatabaseUnavailableError) return true;
  const state = sqlState(error);
  // 08: connection lost; 53: server out of connections/resources; 57P0x: server shutting down or
  // starting; 57014: a statement timed out (locks held too long, an overloaded server).
  if (state && (/^(08|53)/.test(state) || ['57P01', '57P02', '57P03', '57014'].includes(state))) return true;
  const code = (error as NodeJS.ErrnoException).code;
  if (
    code &&
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)
  ) {
    return true;
  }
  const message = (error as Error).message ?? '';
  return /timeout exceeded when trying to connect|Connection terminated|Cannot use a pool after calling end|Query read timeout|not queryable/.test(
    message,
  );
}
