import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, corsPolicyFor } from './cors-policy.ts';
import { varyOn } from './vary.ts';

declare module 'fastify' {
  interface RouteShorthandOptions {
    /** This route's security headers: helmet's options over the app's, or `false` for none. */
    helmet?: HelmetOptions | false;
  }
  interface FastifyRequest {
    /** A valid CORS preflight was answered in `onRequest` (the `OPTIONS *` route then never runs). */
    corsPreflightEnabled: boolean;
  }
}

/** What helmet does to a response for a set of options: headers set, and removed. */
interface SecurityHeaders {
  set: Array<[string, string]>;
  remove: string[];
}

/**
 * Runs helmet once for `options` against a stand-in response and keeps what it did. Helmet's
 * middleware parses its options on every call (a few percent of a small request's CPU); these
 * options name no per-request value (no nonce, no function), so every response gets the same.
 */
function securityHeaders(options: HelmetOptions | false): SecurityHeaders {
  const headers: SecurityHeaders = { set: [], remove: [] };
  if (options === false) return headers;
  const csp = options.contentSecurityPolicy;
  const directives = csp && typeof csp === 'object' ? Object.values(csp.directives ?? {}) : [];
  if (directives.flat().some((value) => typeof value === 'function')) {
    throw new Error('a CSP directive computed per request cannot be worked out once');
  }
  const response = {
    setHeader: (name: string, value: unknown) => headers.set.push([name, String(value)]),
    removeHeader: (name: string) => headers.remove.push(name),
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** The API answers JSON only: no page of it may load anything, be framed, or post a form. */
const API_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
    frameAncestors: ["'none'"],
  },
};

/**
 * `/docs` is the one HTML page: Swagger UI's script, styles, images and the OpenAPI document, all
 * from this origin. Inline styles: the renderer sets `style` attributes on the SVG it draws.
 */
const DOCS_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

const PUBLIC_METHODS = ['GET', 'HEAD', 'POST', 'PATCH'].join(', ');
const OPERATOR_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE'].join(', ');
const PREFLIGHT_MAX_AGE_SECONDS = '600';
const ALLOWED_HEADERS = CORS_ALLOWED_HEADERS.join(', ');
const EXPOSED_HEADERS = CORS_EXPOSED_HEADERS.join(', ');

/**
 * CORS by the request's path (cors-policy.ts), the headers worked out once per policy: the
 * answers are those @fastify/cors gave with a per-request policy (`Vary: Origin` on every answer,
 * the allowed origin, the exposed headers; a preflight refused without `Origin` and
 * `Access-Control-Request-Method`, else answered 204 here), without normalising its options on
 * every request. Returns false when the request was answered (a preflight).
 */
function applyCors(request: FastifyRequest, reply: FastifyReply, corsOrigins: string[]): boolean {
  // Always: the answer depends on the Origin asked from (fetch spec, CORS and HTTP caches).
  varyOn(reply, 'Origin');
  const policy = corsPolicyFor(request.url, corsOrigins);
  let methods: string;
  if (policy.kind === 'public') {
    reply.header('Access-Control-Allow-Origin', '*');
    methods = PUBLIC_METHODS;
  } else if (policy.kind === 'operator') {
    // Echo an allowed origin; an origin not listed gets no CORS header (the browser refuses).
    const origin = request.headers.origin;
    if (origin === undefined || !policy.origins.has(origin)) return true;
    reply.header('Access-Control-Allow-Origin', origin);
    methods = OPERATOR_METHODS;
  } else {
    return true;
  }
  reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  if (request.raw.method !== 'OPTIONS') return true;
  if (!request.headers.origin || !request.headers['access-control-request-method']) {
    reply.status(400).type('text/plain').send('Invalid Preflight Request');
    return false;
  }
  request.corsPreflightEnabled = true;
  reply.header('Access-Control-Allow-Methods', methods);
  reply.header('Access-Control-Allow-Headers', ALLOWED_HEADERS);
  reply.header('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
  // Some browsers wait for a body on a 204 without a length.
  reply.code(204).header('Content-Length', '0').send();
  return false;
}

export interface SecurityOptions {
  corsOrigins: string[];
  /**
   * Path prefixes of routes whose answers hold guest data (API.md section 1): each answer, errors
   * included, carries `Cache-Control: no-store` unless its handler sets another.
   */
  noStorePrefixes?: readonly string[];
}

/**
 * Security headers on every response (helmet), `Cache-Control: no-store` on guest data, and CORS
 * by path (see cors-policy.ts).
 * Register before the routes: the `/docs` CSP and the public routes' resource policy are attached
 * as the routes are added.
 */
export const security = fp(async (app: FastifyInstance, opts: SecurityOptions) => {
  const appHelmet: HelmetOptions = {
    contentSecurityPolicy: API_CSP,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  };
  const appHeaders = securityHeaders(appHelmet);
  app.addHook('onRoute', (route) => {
    // Decided once per route, by its pattern, so no route holding guest data can be forgotten.
    if (
      (opts.noStorePrefixes ?? []).some(
        (prefix) => route.url === prefix || route.url.startsWith(`${prefix}/`),
      )
    ) {
      route.config = { ...route.config, noStore: true } as typeof route.config;
    }
    let routeHelmet: HelmetOptions | false | undefined = route.helmet;
    if (routeHelmet === undefined) {
      if (route.url === '/docs' || route.url.startsWith('/docs/')) {
        routeHelmet = { contentSecurityPolicy: DOCS_CSP };
      } else if (corsPolicyFor(route.url, opts.corsOrigins).kind === 'public') {
        // Other sites may read public answers (keys, errors included), also without CORS.
        routeHelmet = { crossOriginResourcePolicy: { policy: 'cross-origin' } };
      }
    }
    if (routeHelmet !== undefined) {
      // A route's options replace the app's option by option, as @fastify/helmet merged them.
      const merged: HelmetOptions | false =
        routeHelmet === false ? false : Object.assign({}, appHelmet, routeHelmet);
      const headers = securityHeaders(merged);
      route.config = { ...route.config, securityHeaders: headers } as typeof route.config;
    }
  });
  // Every response, the not-found and error answers included: set before any handler runs, on the
  // raw response as helmet sets them, so nothing replying later can lose them. Then CORS.
  app.decorateRequest('corsPreflightEnabled', false);
  app.addHook('onRequest', (request, reply, done) => {
    // The route's headers, worked out when it was added (`onRoute` above), else the app's.
    const config = request.routeOptions.config as { securityHeaders?: SecurityHeaders; noStore?: boolean };
    const { set, remove } = config.securityHeaders ?? appHeaders;
    for (const name of remove) reply.raw.removeHeader(name);
    for (const [name, value] of set) reply.raw.setHeader(name, value);
    // On the raw response, as a default: a handler's own Cache-Control (Fastify's) replaces it.
    if (config.noStore) reply.raw.setHeader('cache-control', 'no-store');
    if (applyCors(request, reply, opts.corsOrigins)) done();
  });
  // Lets Fastify route a preflight to any path; one CORS allows is answered by the hook above.
  app.options('*', { schema: { hide: true } }, (request, reply) => {
    if (request.corsPreflightEnabled) reply.send();
    else reply.callNotFound();
  });
});
