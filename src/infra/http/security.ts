import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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
 * `/docs` is the one HTML page: the Scalar reference runs its bundled script (served from /docs),
 * an inline bootstrap script and inline styles, fetches the OpenAPI document from this origin and
 * may load its fonts over HTTPS.
 */
const DOCS_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    scriptSrc: ["'self'", "'unsafe-inline'"],
    styleSrc: ["'self'", "'unsafe-inline'", 'https:'],
    fontSrc: ["'self'", 'https:', 'data:'],
    imgSrc: ["'self'", 'data:', 'https:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

/** Headers a browser client may read on a cross-origin response. */
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'X-Request-Id',
  'Idempotent-Replayed',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
];
const CORS_ALLOWED_HEADERS = [
  'Content-Type',
  'Authorization',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
  'X-Request-Id',
];

/**
 * Security headers on every response (helmet), and CORS for the origins in CORS_ORIGINS only
 * (`*` allows any): with none configured no CORS header is ever sent, so browsers keep the
 * same-origin policy.
 * Register before the routes: the `/docs` CSP is attached as its routes are added.
 */
export const security = fp(async (app: FastifyInstance, opts: { corsOrigins: string[] }) => {
  app.addHook('onRoute', (route) => {
    if (route.url === '/docs' || route.url.startsWith('/docs/')) {
      route.config = {
        ...(route.config as object),
        helmet: { contentSecurityPolicy: DOCS_CSP },
      } as typeof route.config;
    }
  });
  await app.register(helmet, {
    contentSecurityPolicy: API_CSP,
    // Public keys and errors may be read by other sites' scripts when CORS allows them.
    crossOriginResourcePolicy: { policy: opts.corsOrigins.length > 0 ? 'cross-origin' : 'same-origin' },
  });
  if (opts.corsOrigins.length > 0) {
    const allowed = new Set(opts.corsOrigins);
    await app.register(cors, {
      origin: (origin, callback) =>
        callback(null, origin !== undefined && (allowed.has(origin) || allowed.has('*'))),
      methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
      allowedHeaders: CORS_ALLOWED_HEADERS,
      exposedHeaders: CORS_EXPOSED_HEADERS,
      maxAge: 600,
      strictPreflight: true,
    });
  }
});
