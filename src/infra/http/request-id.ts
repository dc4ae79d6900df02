import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** A caller's id is echoed only when it is short and printable, so it cannot forge log lines. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestIds = {
  generate(request: { headers: FastifyRequest['headers'] }): string {
    const given = request.headers['x-request-id'];
    return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
  },
  plugin: fp(async (app: FastifyInstance) => {
    // A callback hook, not an async one: every request runs it, and a promise costs a turn.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
  }),
};
