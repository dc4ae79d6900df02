import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendProblem } from './error-handler.ts';

/**
 * Fastify answers 404 for a known path with an unserved method; the contract wants 405 with
 * `Allow`. Route patterns are collected as they register and matched here only on the miss path.
 */
export const notFoundHandler = fp(async (app: FastifyInstance) => {
  const routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];
  app.addHook('onRoute', (route) => {
    const source = `^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`;
    let entry = routes.find((r) => r.pattern.source === source);
    if (!entry) {
      entry = { pattern: new RegExp(source), methods: new Set() };
      routes.push(entry);
    }
    for (const method of [route.method].flat()) entry.methods.add(method);
  });
  // A request no route serves is answered before its body is read: QUERY (a method with a body to
  // Fastify) without a Content-Type, or any body of the wrong type, is still the path's 405 or 404,
  // never a complaint about the body. The not-found handler below answers the rest the same way.
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!request.is404) return done(null, payload);
    answerMiss(request, reply);
  });
  const answerMiss = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = new Set<string>();
    for (const r of routes) if (r.pattern.test(path)) for (const m of r.methods) allowed.add(m);
    if (allowed.size > 0) {
      const allow = [...allowed].sort().join(', ');
      return sendProblem(
        request,
        reply,
        'method_not_allowed',
        `${request.method} is not allowed here; use ${allow}.`,
        {
          headers: { allow },
        },
      );
    }
    // `unknownRoute` tells a client "this server has no such endpoint" (an older version, a typo)
    // apart from "no such reservation" without reading the English detail.
    return sendProblem(request, reply, 'not_found', `No endpoint at ${request.method} ${path}.`, {
      members: { unknownRoute: true },
    });
  };
  app.setNotFoundHandler(answerMiss);
});
