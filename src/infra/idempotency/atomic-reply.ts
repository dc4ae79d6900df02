import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BeforeCommit } from '../db/database.ts';
import { withHeaders } from '../http/vary.ts';
import type { StoredResponse } from './idempotency.plugin.ts';

/** What a handler answers for a write's result; `payload` goes through the route's response schema. */
export interface ReplySpec {
  status: number;
  headers?: Record<string, string>;
  payload: unknown;
}

/** What Fastify sends for a serialised JSON body; a replay must repeat it. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The response of a write that commits a change, made so that its idempotent copy is stored in the
 * write's own transaction: pass `beforeCommit` to the write, then answer with `send(result)`.
 * The body is serialised once, inside the transaction, and exactly those bytes are both stored
 * and sent, so a replay is identical to the first answer. Without a claimed key it is a plain send.
 */
export function atomicReply<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  build: (result: T) => ReplySpec,
) {
  const handle = request.idempotency;
  // The response stored by the latest attempt, and the result it was made for: a retried
  // transaction stores again, and only the attempt that returned its result committed.
  let prepared: { result: T; response: StoredResponse } | null = null;

  const beforeCommit: BeforeCommit<T> | undefined = handle
    ? async (tx, result) => {
        prepared = null;
        const spec = build(result);
        const response: StoredResponse = {
          status: spec.status,
          headers: { ...spec.headers, 'content-type': JSON_TYPE },
          // The route's compiled response schema for this status, as the send would use it.
          body: reply.serializeInput(spec.payload as Record<string, unknown>, String(spec.status)) as string,
        };
        await handle.storeWithin(tx, response);
        prepared = { result, response };
      }
    : undefined;

  return {
    beforeCommit,
    send(result: T): FastifyReply {
      if (handle && prepared?.result === result) {
        handle.committed();
        const { response } = prepared;
        // Already serialised: bypass the schema serialiser, as a replay does.
        return withHeaders(reply.code(response.status), response.headers)
          .serializer((payload: unknown) => payload as string)
          .send(response.body);
      }
      // No key, or a path of the write that committed nothing (its answer is stored after sending).
      const spec = build(result);
      return withHeaders(reply.code(spec.status), spec.headers ?? {}).send(spec.payload);
    },
  };
}
