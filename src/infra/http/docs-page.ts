import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import compress from '@fastify/compress';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { codeFile } from '../project-files.ts';
import {
  DOCS_ASSETS_PREFIX,
  docsAssets,
  IMMUTABLE,
  preferredEncoding,
  withHashedAssets,
} from './docs-assets.ts';
import { AppError } from './problems.ts';
import { varyOn } from './vary.ts';

/**
 * Revalidate every time: the page, the document and the small files carry no content hash in their
 * names, so a cached copy may only be used after the server confirms it with a 304 (cheap: no
 * body). The large files are served under hashed names and kept for a year (docs-assets.ts).
 */
export const DOCS_CACHE_CONTROL = 'no-cache';

const DOCS_THEME = {
  css: readFileSync(codeFile('infra/http/docs-theme/innkeep-docs.css'), 'utf8'),
  js: readFileSync(codeFile('infra/http/docs-theme/innkeep-docs.js'), 'utf8'),
};

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
    if (reply.getHeader('cache-control') !== IMMUTABLE) reply.header('cache-control', DOCS_CACHE_CONTROL);
    if (payload instanceof Readable) payload.destroy();
    return '';
  }
  if (reply.statusCode !== 200) return payload;
  if (reply.getHeader('cache-control') === IMMUTABLE) return payload;
  reply.header('cache-control', DOCS_CACHE_CONTROL);
  if (typeof payload === 'string' && String(reply.getHeader('content-type')).startsWith('text/html'))
    payload = withHashedAssets(payload);
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
  app.get<{ Params: { name: string } }>(
    `${DOCS_ASSETS_PREFIX}:name`,
    { schema: { hide: true }, compress: false, config: { rateLimit: false } },
    async (request, reply) => {
      const asset = docsAssets().get(request.params.name);
      // An older page's name after an upgrade, or a typo: the page links the current names.
      if (!asset) throw new AppError('not_found', 'No such file of the reference page.');
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      reply
        .header('content-type', asset.contentType)
        .header('cache-control', IMMUTABLE)
        .header('etag', asset.etag);
      varyOn(reply, 'Accept-Encoding');
      if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
      if (encoding) reply.header('content-encoding', encoding);
      return reply.send(encoding ? asset.encoded(encoding) : asset.identity);
    },
  );
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // No call to the public validator at validator.swagger.io.
    validatorUrl: false,
    uiConfig: {
      // The standalone layout's top bar loads any URL typed into it; the base layout only this document.
      layout: 'BaseLayout',
      // A deep link is an <a> inside each operation's summary button: a control nested in a control.
      deepLinking: false,
      tryItOutEnabled: false,
      // Its highlighting themes fall below WCAG contrast; plain text reads as well.
      syntaxHighlight: false,
    },
    // Contrast fixes and the names axe asks for (docs-theme/): what Swagger UI's options cannot set.
    theme: {
      title: 'Innkeep API',
      css: [{ filename: 'innkeep-docs.css', content: DOCS_THEME.css }],
      js: [{ filename: 'innkeep-docs.js', content: DOCS_THEME.js }],
    },
  });
}
