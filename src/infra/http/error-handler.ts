import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { constraintProblem, isDatabaseUnavailable } from './database-problems.ts';
import {
  AppError,
  PROBLEMS,
  type ProblemCode,
  type ProblemDetailEntry,
  type ProblemExtras,
  problemType,
  validationProblem,
} from './problems.ts';
import { type AjvError, ajvFaults, faultEntries } from './schema-errors.ts';
import { withHeaders } from './vary.ts';

const CONTEXT_PREFIX: Record<string, string> = {
  body: '',
  params: '/path',
  querystring: '/query',
  headers: '/headers',
};

function validationEntries(error: FastifyError): ProblemDetailEntry[] {
  const prefix = CONTEXT_PREFIX[error.validationContext ?? 'body'] ?? '';
  const entries = faultEntries(ajvFaults((error.validation ?? []) as AjvError[], prefix));
  return entries.length > 0 ? entries : [{ path: prefix || '/', message: 'is invalid' }];
}

function toProblem(error: FastifyError | AppError): {
  code: ProblemCode;
  detail: string;
  errors?: ProblemDetailEntry[];
  headers?: Record<string, string>;
  members?: Record<string, unknown>;
} {
  if (error instanceof AppError) {
    return {
      code: error.code,
      detail: error.message,
      errors: error.errors,
      headers: error.headers,
      ...(error.members ? { members: error.members } : {}),
    };
  }
  if (error.validation) return toProblem(validationProblem(validationEntries(error)));
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: 'unsupported_media_type', detail: 'Send the request body as application/json.' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'payload_too_large', detail: 'The request body is larger than this endpoint accepts.' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return toProblem(
        validationProblem([{ path: '/', message: 'is required' }], 'The request body is empty.'),
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return toProblem(
        validationProblem(
          [{ path: '/', message: 'is not valid JSON' }],
          'The request body is not valid JSON.',
        ),
      );
  }
  const status = error.statusCode ?? 500;
  if (status === 429)
    return { code: 'rate_limited', detail: 'Too many requests; retry after the time given in Retry-After.' };
  if (status === 413) return { code: 'payload_too_large', detail: 'The request body is too large.' };
  if (status === 415) return { code: 'unsupported_media_type', detail: error.message };
  if (status === 404) return { code: 'not_found', detail: error.message };
  if (status === 503)
    return { code: 'service_unavailable', detail: 'The service is overloaded; retry shortly.' };
  // Only Fastify's own client errors speak to the client; a 4xx status on another error is a service
  // this one called refusing it (Stripe's 401 for a wrong key): a fault of ours, never its words.
  if (status >= 400 && status < 500 && String(error.code ?? '').startsWith('FST_')) {
    return toProblem(validationProblem([{ path: '/', message: error.message }], error.message));
  }
  const refused = constraintProblem(error);
  if (refused) return refused;
  if (isDatabaseUnavailable(error)) {
    return {
      code: 'database_unavailable',
      detail: 'The database is unavailable; retry shortly.',
      headers: { 'retry-after': '5' },
    };
  }
  return {
    code: 'internal_error',
    detail: 'An unexpected error occurred; it has been logged with the request id.',
  };
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ProblemCode,
  detail: string,
  extra: ProblemExtras = {},
) {
  const { status, title } = PROBLEMS[code];
  if (extra.headers) withHeaders(reply, extra.headers);
  return reply
    .code(status)
    .type('application/problem+json')
    .send({
      type: problemType(code),
      title,
      status,
      code,
      detail,
      ...(extra.errors ? { errors: extra.errors } : {}),
      ...extra.members,
      requestId: String(request.id),
    });
}

/** One error path: every thrown error becomes RFC 9457 problem+json; 5xx are logged, never explained. */
export const errorHandler = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = toProblem(error);
    const status = PROBLEMS[problem.code].status;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return sendProblem(request, reply, problem.code, problem.detail, problem);
  });
});
