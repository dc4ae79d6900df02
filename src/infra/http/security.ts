import cors, { type FastifyCorsOptions } from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, corsPolicyFor } from './cors-policy.ts';

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

const PUBLIC_METHODS = ['GET', 'HEAD', 'POST', 'PATCH'];
const OPERATOR_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE'];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** The @fastify/cors options for one request, from its path's policy. */
const COMMON_CORS = {
  credentials: false,
  allowedHeaders: CORS_ALLOWED_HEADERS,
  exposedHeaders: CORS_EXPOSED_HEADERS,
  maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  strictPreflight: true,
};
/** The same for every request of their kind: made once, not per request. */
const PUBLIC_CORS: FastifyCorsOptions = Object.freeze({
  ...COMMON_CORS,
  origin: '*',
  methods: PUBLIC_METHODS,
});
const NO_CORS: FastifyCorsOptions = Object.freeze({ origin: false });

function corsOptionsFor(url: string, corsOrigins: string[]): FastifyCorsOptions {
  const policy = corsPolicyFor(url, corsOrigins);
  const common = COMMON_CORS;
  switch (policy.kind) {
    case 'public':
      return PUBLIC_CORS;
    case 'operator':
      return {
        ...common,
        methods: OPERATOR_METHODS,
        // Echo an allowed origin; an origin not listed gets no CORS header (the browser refuses).
        origin: (origin, callback) => callback(null, origin !== undefined && policy.origins.has(origin)),
      };
    case 'none':
      return NO_CORS;
  }
}

/**
 * Security headers on every response (helmet) and CORS by path (see cors-policy.ts).
 * Register before the routes: the `/docs` CSP and the public routes' resource policy are attached
 * as the routes are added.
 */
export const security = fp(async (app: FastifyInstance, opts: { corsOrigins: string[] }) => {
  app.addHook('onRoute', (route) => {
    let helmetConfig: object | undefined;
    if (route.url === '/docs' || route.url.startsWith('/docs/')) {
      helmetConfig = { contentSecurityPolicy: DOCS_CSP };
    } else if (corsPolicyFor(route.url, opts.corsOrigins).kind === 'public') {
      // Other sites may read public answers (keys, errors included), also without CORS.
      helmetConfig = { crossOriginResourcePolicy: { policy: 'cross-origin' } };
    }
    if (helmetConfig) {
      route.config = { ...(route.config as object), helmet: helmetConfig } as typeof route.config;
    }
  });
  await app.register(helmet, {
    contentSecurityPolicy: API_CSP,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  await app.register(cors, {
    delegator: (request, callback) => callback(null, corsOptionsFor(request.url, opts.corsOrigins)),
  });
});
