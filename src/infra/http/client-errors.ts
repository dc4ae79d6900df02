import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { PROBLEMS, type ProblemCode, problemType } from './problems.ts';

/** Node's limit on the request line plus headers (`--max-http-header-size`, 16 KiB by default). */
const HEADER_LIMIT_KIB = 16;

function problemOf(error: NodeJS.ErrnoException): { code: ProblemCode; detail: string; path?: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return {
      code: 'headers_too_large',
      detail: `The request line and headers together are larger than ${HEADER_LIMIT_KIB} KiB.`,
    };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { code: 'request_timeout', detail: 'The request was not received in time.' };
  }
  return { code: 'validation_error', detail: 'The request is not valid HTTP/1.1.', path: '/' };
}

/**
 * Errors of Node's HTTP parser (a header block or URL over the limit, malformed HTTP, a request
 * that never finished arriving) happen before there is a request, so neither the error handler
 * nor the request-id hook runs. This answers them as problem+json with a fresh request id, like
 * every other error, then closes the connection (its framing is lost). Pass it to Fastify as
 * `clientErrorHandler`.
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  // A reset connection has nobody to answer (https://nodejs.org/api/http.html#event-clienterror).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const problem = problemOf(error);
  const { status, title } = PROBLEMS[problem.code];
  const requestId = randomUUID();
  // Never the error itself: its `rawPacket` holds the raw request, credentials and session ids too.
  this.log.info({ reqId: requestId, code: error.code, status }, 'request refused by the HTTP parser');
  const body = JSON.stringify({
    type: problemType(problem.code),
    title,
    status,
    code: problem.code,
    detail: problem.detail,
    ...(problem.path ? { errors: [{ path: problem.path, message: 'is not valid HTTP' }] } : {}),
    requestId,
  });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/problem+json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
