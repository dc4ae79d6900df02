import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from './error-handler.ts';
import { validationProblem } from './problems.ts';

/**
 * Errors Fastify raises before routing: a path that is not valid percent-encoding (400), a path
 * parameter over the router's length limit (404: no identifier is that long). Without this they bypass the error handler and
 * answer plain JSON; with it they are problem+json like every other error. Pass it to Fastify as
 * `frameworkErrors`.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // The onRequest hooks did not run: repeat what they would have sent.
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    // No identifier is that long (codes and session ids are far shorter): nothing lives there.
    return sendProblem(request, reply, 'not_found', 'No resource has an identifier this long.');
  }
  const problem = validationProblem([
    { path: '/path', message: 'is not a valid URL path (bad percent-encoding)' },
  ]);
  return sendProblem(request, reply, problem.code, problem.message, { errors: problem.errors });
}
