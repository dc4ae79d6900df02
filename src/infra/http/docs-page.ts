import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import compress from '@fastify/compress';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Revalidate every time: the asset names carry no content hash, so a cached copy may only be used
 * after the server confirms it with a 304 (cheap: no body).
 */
export const DOCS_CACHE_CONTROL = 'no-cache';

/** A weak validator: the same value stands for the identity and the compressed representations. */
function weakEtag(payload: string | Buffer): string {
  return `W/"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;
}

/** RFC 9110 weak comparison against each entity tag of `If-None-Match`. */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

/**
 * Validators and caching for the document and the page: static files already carry an ETag from
 * @fastify/static; generated answers (the page, its initializer, the document) get one here.
 */
async function cacheValidators(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode === 304) {
    // @fastify/static answered a revalidation: no body, so nothing for compression to encode.
    reply.header('cache-control', DOCS_CACHE_CONTROL);
    if (payload instanceof Readable) payload.destroy();
    return '';
  }
  if (reply.statusCode !== 200) return payload;
  reply.header('cache-control', DOCS_CACHE_CONTROL);
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  const etag = (reply.getHeader('etag') as string | undefined) ?? weakEtag(payload);
  reply.header('etag', etag);
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
    reply.code(304);
    return '';
  }
  return payload;
}

/**
 * `GET /api/v1/openapi.json` and the reference at `/docs` (Swagger UI, served from this package's
 * copy of swagger-ui-dist: no request leaves this origin). Both are compressed (brotli or gzip, as
 * the client accepts) and carry ETag + Cache-Control. Register encapsulated (not with fastify-plugin)
 * so compression stays on these routes only.
 */
export async function docsPage(app: FastifyInstance) {
  await app.register(compress, { global: true, encodings: ['br', 'gzip'] });
  app.addHook('onSend', cacheValidators);

  app.get('/api/v1/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () =>
    app.swagger(),
  );
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // No call to the public validator at validator.swagger.io.
    validatorUrl: false,
    uiConfig: {
      // The standalone layout's top bar loads any URL typed into it; the base layout only this document.
      layout: 'BaseLayout',
      deepLinking: true,
      tryItOutEnabled: false,
    },
    theme: { title: 'Innkeep API' },
  });
}
