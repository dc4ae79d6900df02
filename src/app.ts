import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type Stripe from 'stripe';
import { QuoteResponse, SearchResponse } from './booking/availability.schemas.ts';
import { bookingRoutes } from './booking/booking.routes.ts';
import { CreatedReservation } from './booking/booking.schemas.ts';
import { operatorReservationRoutes, stayRoutes } from './booking/operator-reservations.routes.ts';
import { reservationListRoutes } from './booking/reservation-list.routes.ts';
import { mediaRoutes } from './catalog/media.routes.ts';
import { hotelsRoutes } from './catalog/operator-hotels.routes.ts';
import { ALPINEBITS_SECURITY_SCHEME, alpineBitsRoutes } from './channels/alpinebits/alpinebits.routes.ts';
import { icalOperatorRoutes, icalRoutes } from './channels/ical/ical.routes.ts';
import { checkinRoutes } from './checkin/checkin.routes.ts';
import { SignedSession } from './checkin/checkin.schemas.ts';
import { guestRegisterRoutes } from './checkin/guest-register.routes.ts';
import type { TrustProxy } from './config/trust-proxy.ts';
import type { AppContext } from './context.ts';
import { chargeCardRoutes } from './deposits/charge-card.routes.ts';
import { registerWebhookMetrics } from './events/webhook-metrics.ts';
import { WEBHOOKS_DOCUMENT } from './events/webhooks.docs.ts';
import { webhooksRoutes } from './events/webhooks.routes.ts';
import { folioRoutes } from './folios/folio.routes.ts';
import { invoicesRoutes } from './folios/invoices.routes.ts';
import { calendarRoutes } from './hotel-calendar/calendar.routes.ts';
import { type Clock, systemClock } from './infra/clock.ts';
import { clientErrorHandler } from './infra/http/client-errors.ts';
import { Money, registerSchemaFormats } from './infra/http/common-schemas.ts';
import { errorHandler } from './infra/http/error-handler.ts';
import { frameworkErrors } from './infra/http/framework-errors.ts';
import { healthRoutes } from './infra/http/health.routes.ts';
import { loadShedding } from './infra/http/load-shedding.ts';
import { metrics } from './infra/http/metrics.ts';
import { notFoundHandler } from './infra/http/not-found.ts';
import { openapi } from './infra/http/openapi.ts';
import { Problem } from './infra/http/problem-schema.ts';
import { rateLimit } from './infra/http/rate-limit.ts';
import { requestIds } from './infra/http/request-id.ts';
import { type SchemaCompilers, schemaCompilers } from './infra/http/schema-compilers.ts';
import { security } from './infra/http/security.ts';
import { unstorableJsonError } from './infra/http/unstorable-json.ts';
import { idempotency } from './infra/idempotency/idempotency.plugin.ts';
import { messagesRoutes } from './messages/messages.routes.ts';
import { auditRoutes } from './operator-access/audit.routes.ts';
import { keysRoutes } from './operator-access/keys.routes.ts';
import { OPERATOR_SECURITY_SCHEME, STAFF_SESSION_SECURITY_SCHEME } from './operator-access/operator.docs.ts';
import { guardOperatorRoutes, operatorAuthenticatorOf } from './operator-access/operator-auth.ts';
import { createSessionAuthenticator } from './operator-access/session-credential.ts';
import { pagesPlugin } from './pages/pages.plugin.ts';
import type { PaymentProvider } from './payments/payment-provider.ts';
import { paymentsRoutes } from './payments/payments.routes.ts';
import { createTestPaymentProvider } from './payments/test-provider.ts';
import { promotionRoutes } from './promotions/promotions.routes.ts';
import {
  CancellationPolicy,
  OperatorReservation,
  PriceLine,
  Reservation,
  ScheduledPayment,
} from './reservations/reservation.schemas.ts';
import { signingRoutes } from './signing/signing.routes.ts';
import { authRoutes } from './staff/auth.routes.ts';
import { staffRoutes } from './staff/staff.routes.ts';

export interface BuildOptions extends Omit<AppContext, 'payments' | 'clock'> {
  payments?: PaymentProvider;
  clock?: Clock;
  logger: Logger;
  /** With PAYMENT_PROVIDER=stripe: the SDK client (its webhook verification). */
  stripe?: Stripe | null;
  /** Told the context the app's routes share, so background jobs use the very same one. */
  onContext?: (ctx: AppContext) => void;
  /** Fastify's schema compilers (default: `schemaCompilers()`); tests share theirs across apps. */
  schemaCompilers?: SchemaCompilers;
}

export const BODY_LIMIT = 1024 * 1024;
const ETAG = { description: 'The reservation’s version, `"<version>"`; send it back in `If-Match`.' };
/** Headers that come with a response schema, wherever it is answered (documented once here). */
const RESPONSE_HEADERS = {
  Reservation: { ETag: ETAG },
  OperatorReservation: { ETag: ETAG },
  OperatorReservationDetail: { ETag: ETAG },
  CreatedReservation: {
    ETag: ETAG,
    Location: { description: 'The reservation’s URL: `GET` it with the access token.' },
  },
};

/**
 * Routes whose answers hold guest data, never to be cached (API.md section 1): reservations, check-in
 * sessions, and the whole operator API (reservations, guest register, events, keys, webhooks…).
 */
const GUEST_DATA_PREFIXES = [
  '/api/v1/booking/reservations',
  '/api/v1/checkin',
  '/api/v1/operator',
  '/api/v1/auth',
];

/** Schemas answered by several operations: named components of the OpenAPI document, for SDKs. */
const SHARED_SCHEMAS = [
  Money,
  PriceLine,
  CancellationPolicy,
  ScheduledPayment,
  SearchResponse,
  QuoteResponse,
  Reservation,
  CreatedReservation,
  OperatorReservation,
  SignedSession,
];

/**
 * TRUST_PROXY for Fastify. A hop count becomes proxy-addr's trust function (hop `i` counted from the
 * socket's peer, 0): Fastify itself no longer honours a number (it trusts nothing then).
 */
function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * The operator API (API.md 7), under `/api/v1/operator`: each feature's operator routes, every one
 * guarded by an operator key and declaring the scope it needs (`operator-access/operator-auth.ts`).
 */
const operatorApi: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const authenticator = operatorAuthenticatorOf(ctx);
  // A key, or a signed-in person's session (API.md 12): one guard, one scope check, either way.
  guardOperatorRoutes(app, authenticator, {
    sessions: createSessionAuthenticator({
      db: ctx.db,
      now: () => ctx.clock.now(),
      idleMinutes: ctx.config.staffSessionIdleMinutes,
    }),
    publicOrigin: new URL(ctx.config.publicBaseUrl).origin,
  });
  await app.register(keysRoutes, { ctx, authenticator });
  await app.register(hotelsRoutes, { ctx });
  await app.register(auditRoutes, { ctx });
  await app.register(reservationListRoutes, { ctx });
  await app.register(guestRegisterRoutes, { ctx });
  await app.register(calendarRoutes, { ctx });
  await app.register(promotionRoutes, { ctx });
  await app.register(icalOperatorRoutes, { ctx });
  await app.register(operatorReservationRoutes, { ctx });
  await app.register(stayRoutes, { ctx });
  await app.register(messagesRoutes, { ctx });
  await app.register(staffRoutes, { ctx });
  await app.register(webhooksRoutes, { ctx });
  await app.register(folioRoutes, { ctx });
  await app.register(chargeCardRoutes, { ctx });
  await app.register(invoicesRoutes, { ctx });
};

/** Builds the HTTP application; the server and the tests share it. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  registerSchemaFormats();
  const { stripe = null, schemaCompilers: compilers = schemaCompilers(), ...rest } = options;
  const ctx: AppContext = {
    ...rest,
    payments: options.payments ?? createTestPaymentProvider(),
    clock: options.clock ?? systemClock,
  };
  options.onContext?.(ctx);
  const app = Fastify({
    loggerInstance: options.logger as unknown as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT,
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    requestIdHeader: false,
    genReqId: requestIds.generate,
    frameworkErrors,
    clientErrorHandler,
    // Timeouts so a slow or stuck client cannot hold a connection forever.
    requestTimeout: 30_000,
    connectionTimeout: 90_000, // above keepAliveTimeout, so idle keep-alive sockets are not cut early
    keepAliveTimeout: 72_000,
    // The 503 while closing is load-shedding.ts's, in problem+json.
    return503OnClosing: false,
    schemaController: { compilersFactory: compilers },
    ajv: {
      customOptions: {
        allErrors: true,
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: true,
        strict: false,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addSchema(Problem);
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  // An empty body with a JSON content type reads as "no body" (cancel's body is optional);
  // routes that need one then fail schema validation with a 400, never a parser error.
  // Prototype-polluting keys are refused by unstorableJsonError, which names them; Fastify's own
  // check would answer "not valid JSON".
  const parseJson = app.getDefaultJsonParser('ignore', 'ignore');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    parseJson(request, body as string, (error, parsed) => {
      if (error) return done(error, undefined);
      const refused = unstorableJsonError(body as string, parsed);
      return refused ? done(refused, undefined) : done(null, parsed);
    });
  });
  await app.register(requestIds.plugin);
  await app.register(errorHandler);
  await app.register(notFoundHandler);
  // Hardening before any route: these plugins attach to routes as they are added.
  await app.register(security, { corsOrigins: ctx.config.corsOrigins, noStorePrefixes: GUEST_DATA_PREFIXES });
  await app.register(loadShedding, {
    db: ctx.db,
    maxEventLoopDelayMs: ctx.config.loadShedMaxEventLoopDelayMs,
    maxDbWaitMs: ctx.config.loadShedMaxWaitMs,
  });
  await app.register(rateLimit, {
    perMinute: ctx.config.rateLimitPerMinute,
    redisUrl: ctx.config.redisUrl,
    // The hotel's own tools are limited per operator key, never by guests sharing their address.
    operator: {
      prefix: '/api/v1/operator',
      perMinute: ctx.config.operatorRateLimitPerMinute,
      callerOf: (request) => request.operator?.id,
    },
  });
  await app.register(metrics, {
    db: ctx.db,
    collectors: [registerWebhookMetrics],
    token: ctx.config.metricsToken,
  });
  await app.register(openapi, {
    publicBaseUrl: ctx.config.publicBaseUrl,
    securitySchemes: {
      operatorKey: OPERATOR_SECURITY_SCHEME,
      staffSession: STAFF_SESSION_SECURITY_SCHEME,
      alpineBitsBasic: ALPINEBITS_SECURITY_SCHEME,
    },
    headersBySchema: RESPONSE_HEADERS,
    webhooks: WEBHOOKS_DOCUMENT,
  });
  await app.register(idempotency, { db: ctx.db, encryptor: ctx.encryptor });

  await app.register(healthRoutes, { db: ctx.db });
  await app.register(bookingRoutes, { prefix: '/api/v1/booking', ctx });
  await app.register(checkinRoutes, { prefix: '/api/v1/checkin', ctx });
  await app.register(paymentsRoutes, { prefix: '/api/v1/payments', ctx, stripe });
  await app.register(signingRoutes, { ctx });
  await app.register(operatorApi, { prefix: '/api/v1/operator', ctx });
  await app.register(authRoutes, { prefix: '/api/v1/auth', ctx });
  await app.register(icalRoutes, { prefix: '/api/v1/ical', ctx });
  await app.register(alpineBitsRoutes, { prefix: '/api/v1/alpinebits', ctx });
  await app.register(mediaRoutes, { catalog: ctx.catalog, dataDir: ctx.config.dataDir });
  await app.register(pagesPlugin, {
    catalog: ctx.catalog,
    payments: { stripeJsUrl: ctx.config.stripe?.jsUrl ?? null },
  });
  return app as unknown as FastifyInstance;
}
