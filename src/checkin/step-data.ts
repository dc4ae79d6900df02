import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type ValueError, ValueErrorType } from '@sinclair/typebox/compiler';
import type { ProblemDetailEntry } from '../infra/http/problems.ts';
import { TEXT_PATTERN_MESSAGES } from '../infra/http/text-schemas.ts';
import { STEP_SUBMISSIONS } from './checkin.schemas.ts';
import { STEP_NAMES, type StepName, stepNamed } from './steps/index.ts';
import type { AcceptedStep, StepRules } from './steps/step.ts';

export type { AcceptedStep, StepRules };

const checkers = Object.fromEntries(
  STEP_NAMES.map((name) => [name, TypeCompiler.Compile(STEP_SUBMISSIONS[name])]),
) as unknown as Record<StepName, { Errors(value: unknown): Iterable<ValueError> }>;

function describeSchemaError(error: ValueError): string {
  const schema = error.schema as TSchema & Record<string, unknown>;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not a known field';
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(schema.const)}`;
    case ValueErrorType.Union: {
      const options = ((schema.anyOf ?? []) as Array<{ const?: unknown }>).map((s) => s.const);
      return options.every((o) => o !== undefined)
        ? `must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`
        : 'is invalid';
    }
    case ValueErrorType.String:
      return 'must be a string';
    case ValueErrorType.Object:
      return 'must be an object';
    case ValueErrorType.Array:
      return 'must be an array';
    case ValueErrorType.StringMinLength:
      return `must be at least ${schema.minLength} characters`;
    case ValueErrorType.StringMaxLength:
      return `must be at most ${schema.maxLength} characters`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${schema.maxItems} entries`;
    case ValueErrorType.StringFormat:
      return schema.format === 'date' ? 'must be a calendar date YYYY-MM-DD' : `must be a ${schema.format}`;
    case ValueErrorType.StringPattern:
      if (TEXT_PATTERN_MESSAGES[String(schema.pattern)])
        return TEXT_PATTERN_MESSAGES[String(schema.pattern)] as string;
      return typeof schema.description === 'string'
        ? `is not in the expected format (${schema.description})`
        : 'is not in the expected format';
    default:
      return error.message.charAt(0).toLowerCase() + error.message.slice(1);
  }
}

/** Schema errors of a step body, one entry per JSON-pointer path (the first complaint for each). */
export function schemaErrors(step: StepName, body: unknown): ProblemDetailEntry[] {
  const seen = new Set<string>();
  const entries: ProblemDetailEntry[] = [];
  for (const error of checkers[step].Errors(body)) {
    const path = error.path || '/';
    if (seen.has(path)) continue;
    seen.add(path);
    entries.push({ path, message: describeSchemaError(error) });
  }
  return entries;
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
