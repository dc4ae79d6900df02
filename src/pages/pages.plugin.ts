import { readFileSync } from 'node:fs';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import { escapeHtml } from '../infra/escape-html.ts';
import { AppError } from '../infra/http/problems.ts';
import { varyOn } from '../infra/http/vary.ts';
import { isLanguage, LANGUAGES, type Language, languageOfRequest } from '../infra/i18n/languages.ts';
import { projectFile } from '../infra/project-files.ts';
import { renderShell, type Texts } from './shell.ts';
import {
  assetUrl,
  contentEtag,
  IMMUTABLE_CACHE_CONTROL,
  loadStaticAssets,
  matchesEtag,
  REVALIDATE_CACHE_CONTROL,
  resolveAsset,
} from './static-assets.ts';

/** The page code: plain ES modules, CSS and the text catalogues, served as they are (no build). */
export const WEB_ROOT = projectFile('web/');

/**
 * Browser packages the pages import, served by the service itself from node_modules (no third
 * party, no build): the desk's passkeys use `@simplewebauthn/browser` (its ES modules).
 */
export const PAGE_PACKAGES: Record<string, string> = {
  'vendor/simplewebauthn-browser': projectFile('node_modules/@simplewebauthn/browser/esm/'),
};

/**
 * The page's language: an explicit `?lang=` wins, then the best `Accept-Language` match (the one
 * parser of infra/i18n/), then English. The page script may still switch to a choice the guest
 * saved earlier in this browser.
 */
export function pickLanguage(queryLang: unknown, acceptLanguage: string | undefined): Language {
  return isLanguage(queryLang) ? queryLang : languageOfRequest(acceptLanguage);
}

/**
 * The pages may load only what this origin serves: no inline script or style, no third party.
 * Photos and signatures are drawn to canvases and shown as data: or blob: images.
 */
export const PAGES_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    connectSrc: ["'self'"],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

/** Where Stripe.js comes from (docs/api.md §4): with this provider its origin is the one third party allowed. */
export interface PagesPayments {
  stripeJsUrl: string | null;
}

/**
 * The pages' CSP: with Stripe, its script, its card fields' frames and its API (Stripe's own
 * CSP guidance); otherwise nothing but this origin.
 */
export function pagesCsp(payments: PagesPayments) {
  if (!payments.stripeJsUrl) return PAGES_CSP;
  const js = new URL(payments.stripeJsUrl).origin;
  const official = js === 'https://js.stripe.com';
  const stripeFrames = official ? [js, 'https://*.js.stripe.com', 'https://hooks.stripe.com'] : [js];
  return {
    ...PAGES_CSP,
    directives: {
      ...PAGES_CSP.directives,
      scriptSrc: ["'self'", ...(official ? [js, 'https://*.js.stripe.com'] : [js])],
      frameSrc: stripeFrames,
      connectSrc: ["'self'", ...(official ? ['https://api.stripe.com'] : [js])],
    },
  };
}

/**
 * The pages (API.md section 9): `/book/{hotel}`, `/checkin`, `/checkin/{session}` for guests,
 * `/desk` for hotel staff, and their assets under `/assets/`. Scoped (not fastify-plugin): its
 * compression and CSP stay on its routes. A new page is one more `sendPage(…)` route, a
 * `web/<page>/<page>.js` module and its texts in each catalogue.
 */
export async function pagesPlugin(
  app: FastifyInstance,
  opts: { catalog: CatalogStore; payments?: PagesPayments },
) {
  const payments = opts.payments ?? { stripeJsUrl: null };
  // Versioned at start from the files' contents (no build step): see static-assets.ts.
  const assets = loadStaticAssets(WEB_ROOT, PAGE_PACKAGES);
  const asset = (path: string) => assetUrl(assets, path);
  const catalogues = Object.fromEntries(
    LANGUAGES.map((lang) => [lang, JSON.parse(readFileSync(`${WEB_ROOT}i18n/${lang}.json`, 'utf8'))]),
  ) as Record<Language, Texts>;

  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });

  const pageHelmet = { contentSecurityPolicy: pagesCsp(payments) };

  const sendPage = (
    request: FastifyRequest<{ Querystring: { lang?: string } }>,
    reply: FastifyReply,
    page: string,
    titleKey: string,
    data: Record<string, string> = {},
  ) => {
    const lang = pickLanguage(request.query.lang, request.headers['accept-language']);
    const texts = catalogues[lang];
    const pageData = payments.stripeJsUrl ? { ...data, 'stripe-js': payments.stripeJsUrl } : data;
    const html = renderShell({
      page,
      lang,
      texts,
      title: texts[titleKey] ?? titleKey,
      data: pageData,
      asset,
    });
    // The shell names the assets' version, so it is revalidated on every visit (a 304 when
    // unchanged) while the assets themselves are cached for good.
    const etag = contentEtag(html);
    varyOn(reply, 'Accept-Language')
      .type('text/html; charset=utf-8')
      .header('cache-control', REVALIDATE_CACHE_CONTROL)
      .header('etag', etag);
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.send(html);
  };

  app.get<{ Params: { hotel: string }; Querystring: { lang?: string } }>(
    '/book/:hotel',
    { helmet: pageHelmet, schema: { hide: true } },
    async (request, reply) => {
      const hotel = opts.catalog.get(request.params.hotel);
      if (!hotel) {
        const lang = pickLanguage(request.query.lang, request.headers['accept-language']);
        const texts = catalogues[lang];
        const mainHtml = `<h1>${escapeHtml(texts['notFound.title'] ?? '')}</h1><p>${escapeHtml(
          texts['notFound.hotel'] ?? '',
        )}</p>`;
        return reply
          .code(404)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(
            renderShell({
              page: 'shared',
              lang,
              texts,
              title: texts['notFound.title'] ?? '',
              mainHtml,
              asset,
            }),
          );
      }
      return sendPage(request, reply, 'book', 'book.title', { hotel: hotel.id });
    },
  );
  app.get<{ Querystring: { lang?: string } }>(
    '/checkin',
    { helmet: pageHelmet, schema: { hide: true } },
    async (request, reply) => sendPage(request, reply, 'checkin', 'checkin.title'),
  );
  app.get<{ Params: { session: string }; Querystring: { lang?: string } }>(
    '/checkin/:session',
    { helmet: pageHelmet, schema: { hide: true } },
    async (request, reply) => sendPage(request, reply, 'checkin', 'checkin.title'),
  );

  // The front desk (API.md 9, 12): staff sign in (password or passkey) or paste an operator key; it calls the operator API.
  app.get<{ Querystring: { lang?: string } }>(
    '/desk',
    { helmet: pageHelmet, schema: { hide: true } },
    async (request, reply) => sendPage(request, reply, 'desk', 'desk.title'),
  );

  // Staff links (API.md 12): the token rides in the fragment, which never reaches the server.
  for (const path of ['/desk/welcome', '/desk/reset']) {
    app.get<{ Querystring: { lang?: string } }>(
      path,
      { helmet: pageHelmet, schema: { hide: true } },
      async (request, reply) => sendPage(request, reply, 'desk', 'desk.title'),
    );
  }

  app.get<{ Params: { '*': string } }>(
    '/assets/*',
    // Assets come from memory; limiting them would only break pages mid-load.
    { helmet: pageHelmet, config: { rateLimit: false }, schema: { hide: true } },
    async (request, reply) => {
      const { key, current } = resolveAsset(assets, request.params['*']);
      const file = assets.files.get(key);
      if (!file) throw new AppError('not_found', `No asset at ${request.url.split('?')[0]}.`);
      reply
        .header('etag', file.etag)
        .header('cache-control', current ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL)
        .header('x-content-type-options', 'nosniff');
      if (matchesEtag(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
      return reply.type(file.contentType).send(file.body);
    },
  );
}
