import { TypeCompiler, type ValueError } from '@sinclair/typebox/compiler';
import type { ProblemDetailEntry } from '../infra/http/problems.ts';
import { faultEntries, typeboxFaults } from '../infra/http/schema-errors.ts';
import { STEP_NAMES, type StepName, stepNamed } from './steps/index.ts';
import type { AcceptedStep, StepRules } from './steps/step.ts';

export type { AcceptedStep, StepRules };

const checkers = Object.fromEntries(
  STEP_NAMES.map((name) => [name, TypeCompiler.Compile(stepNamed(name).data)]),
) as unknown as Record<StepName, { Errors(value: unknown): Iterable<ValueError> }>;

/**
 * Schema errors of a step's `data` (its envelope was checked by the route), worded as every schema
 * error is (`infra/http/schema-errors.ts`), with JSON pointers from the body.
 */
export function schemaErrors(step: StepName, data: unknown): ProblemDetailEntry[] {
  return faultEntries(typeboxFaults(checkers[step].Errors(data), '/data'));
}

/**
 * Applies a step's rules beyond its schema (API.md 3.3; `data` has passed the schema) and splits
 * the data into what the session shows and what is stored encrypted. Returns every problem found,
 * with JSON-pointer paths.
 */
export function acceptStepData(
  step: StepName,
  data: unknown,
  rules: StepRules,
): { ok: true; accepted: AcceptedStep } | { ok: false; errors: ProblemDetailEntry[] } {
  const errors: ProblemDetailEntry[] = [];
  const accepted = stepNamed(step).accept(data, rules, (path, message) =>
    errors.push({ path: `/data${path}`, message }),
  );
  return errors.length > 0 ? { ok: false, errors } : { ok: true, accepted };
}
