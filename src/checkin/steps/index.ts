import { companions } from './companions.ts';
import { guestDetails } from './guest-details.ts';
import { identityDocument } from './identity-document.ts';
import { payment } from './payment.ts';
import { signature } from './signature.ts';
import type { CheckinStep } from './step.ts';

/**
 * The check-in steps, in the order a guest takes them (API.md 3.3). To add one: a file beside
 * these defining it (`defineStep`), its line here, and its name in the `CHECK` on
 * `checkin_steps.name` (a new migration). Sessions opened before keep the steps they were given.
 */
export const STEPS = [guestDetails, companions, identityDocument, signature, payment] as const;

export type AnyStep = (typeof STEPS)[number];
export type StepName = AnyStep['name'];

export const STEP_NAMES: readonly StepName[] = STEPS.map((s) => s.name);

const byName = new Map<string, CheckinStep>(STEPS.map((s) => [s.name, s as unknown as CheckinStep]));

/** The definition of a step, with its data as `unknown` (checked against `data` by the caller). */
export function stepNamed(name: StepName): CheckinStep {
  const step = byName.get(name);
  if (!step) throw new Error(`no check-in step ${name}`);
  return step;
}
