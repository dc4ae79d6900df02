import { STEP_NAMES, type StepName, stepNamed } from '../steps/index.ts';
import type { StepFacts } from '../steps/step.ts';

/**
 * The check-in step state machine (API.md 3.3) as plain functions: which steps a reservation needs,
 * which one comes next, whether a submission is allowed, and when the session is complete. It walks
 * the step registry (`steps/index.ts`) and knows no step by name.
 */

export type StepStatus = 'pending' | 'completed' | 'skipped';
export type SessionStatus = 'open' | 'completed' | 'cancelled';

export interface StepState {
  name: StepName;
  status: StepStatus;
  required: boolean;
}

export type Refusal =
  | 'reservation_cancelled'
  | 'session_completed'
  | 'step_not_applicable'
  | 'step_out_of_order';

/** A step applies unless its definition says otherwise (companions for a party of one, payment when nothing is due). */
function applies(name: StepName, facts: StepFacts): boolean {
  return stepNamed(name).appliesTo?.(facts) ?? true;
}

/** The steps of a new session, in the order they must be done. */
export function initialSteps(facts: StepFacts): StepState[] {
  return STEP_NAMES.map((name) => ({
    name,
    status: applies(name, facts) ? 'pending' : 'skipped',
    required: true,
  }));
}

/**
 * Re-derives automatic skips from the reservation as it is now (its party or balance may have
 * changed since the session opened). Completed steps stay completed.
 */
export function reconcileSteps(steps: readonly StepState[], facts: StepFacts): StepState[] {
  return steps.map((step) => {
    if (step.status === 'completed') return step;
    const status: StepStatus = applies(step.name, facts) ? 'pending' : 'skipped';
    return status === step.status ? step : { ...step, status };
  });
}

/** The first required step still pending, or null when there is none. */
export function nextStep(steps: readonly StepState[]): StepName | null {
  return steps.find((s) => s.required && s.status === 'pending')?.name ?? null;
}

/** Every required step is completed or skipped. */
export function allStepsDone(steps: readonly StepState[]): boolean {
  return steps.every((s) => !s.required || s.status !== 'pending');
}

/**
 * Why a submission of `name` is refused, or null when it may proceed. Completed steps may be
 * submitted again (a correction) until the session completes; steps are done in order.
 */
export function refuseSubmission(
  status: SessionStatus,
  steps: readonly StepState[],
  name: StepName,
): Refusal | null {
  if (status === 'cancelled') return 'reservation_cancelled';
  if (status === 'completed') return 'session_completed';
  const index = steps.findIndex((s) => s.name === name);
  const step = steps[index];
  if (!step || step.status === 'skipped') return 'step_not_applicable';
  const blocked = steps.slice(0, index).some((s) => s.required && s.status === 'pending');
  return blocked ? 'step_out_of_order' : null;
}

/** The steps after `name` was accepted. */
export function completeStep(steps: readonly StepState[], name: StepName): StepState[] {
  return steps.map((s) => (s.name === name ? { ...s, status: 'completed' } : s));
}
