import type { Static, TSchema } from '@sinclair/typebox';
import type { Transaction } from '../../infra/db/database.ts';
import type { PaymentDeps } from '../../payments/charge.ts';
import type { ReservationRow } from '../../reservations/reservation.row.ts';

/**
 * What one check-in step is (API.md 3.3): its data, what the session shows of it, its rules and
 * its side effect. The session machine knows steps only through this shape and the registry
 * (`steps/index.ts`); one file per step defines one.
 */
export interface CheckinStep<N extends string = string, D extends TSchema = TSchema> {
  name: N;
  /** The `data` of a submission (TypeBox): validation, OpenAPI, handler types. */
  data: D;
  /** A valid `data`, shown in the OpenAPI document. */
  example: Static<D>;
  /**
   * What `GET` shows of an accepted submission (API.md 3.2/3.4), secrets masked: more than one
   * schema when the stored view can take another form (identity data once purged).
   */
  views: readonly TSchema[];
  /** Whether the step applies to a reservation; skipped when not (default: always). */
  appliesTo?: (facts: StepFacts) => boolean;
  /**
   * The rules beyond the schema, reporting every problem (a path under `/data`); answers what the
   * session shows and what is stored encrypted. Pure: no database, no HTTP.
   */
  accept(data: Static<D>, rules: StepRules, problem: Problem): AcceptedStep;
  /**
   * A side effect of an accepted submission, in the step's transaction (the reservation locked):
   * answers the view to store and the reservation as it is afterwards.
   */
  effect?: (data: Static<D>, accepted: AcceptedStep, ctx: StepEffectContext) => Promise<StepEffect>;
}

/** Keeps a step's literal name and data schema in its type. */
export function defineStep<N extends string, D extends TSchema>(step: CheckinStep<N, D>): CheckinStep<N, D> {
  return step;
}

/** What decides whether a step applies to a reservation. */
export interface StepFacts {
  /** adults + children */
  partySize: number;
  /** minor units still owed on the reservation */
  balanceDue: number;
}

/** Facts of the reservation that step rules check against. */
export interface StepRules {
  partySize: number;
  checkOut: string;
  /** hotel-local date today */
  today: string;
  recognisesPaymentToken(token: string): boolean;
}

/** Reports one problem at a JSON pointer relative to the step's `data`. */
export type Problem = (path: string, message: string) => void;

/** What an accepted submission turns into. */
export interface AcceptedStep {
  /** What the session shows (stored as is); null: nothing (until the side effect says). */
  view: Record<string, unknown> | null;
  /** Encrypted at rest (document number, drawn signature); never returned. */
  secret: Record<string, unknown> | null;
  /** Encrypted at rest (document image bytes); never returned. */
  attachment: Buffer | null;
}

/** What a side effect is given: the step's transaction, with the reservation locked. */
export interface StepEffectContext {
  tx: Transaction;
  deps: PaymentDeps;
  reservation: ReservationRow;
  /** The view stored by an earlier submission of this step (a correction), else null. */
  previous: Record<string, unknown> | null;
  now: Date;
}

export interface StepEffect {
  view: Record<string, unknown> | null;
  reservation: ReservationRow;
}
