import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { docsPage } from './docs-page.ts';
import { applyHttpConventions, type HeadersBySchema } from './openapi-conventions.ts';

export const API_VERSION = '1.0.0';

/** The OpenAPI 3.1 document is generated from the route schemas that also validate and serialise. */
export const openapi = fp(
  async (
    app: FastifyInstance,
    opts: {
      publicBaseUrl: string;
      /** Schemes features declare (the operator key), beside the reservation token defined here. */
      securitySchemes?: Record<string, Record<string, unknown>>;
      /** Response headers that come with a schema (ETag with a reservation, Location with a new one). */
      headersBySchema?: HeadersBySchema;
      /** OpenAPI 3.1 `webhooks`: requests the service makes to its clients (features declare them). */
      webhooks?: Record<string, unknown>;
    },
  ) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Innkeep API',
          version: API_VERSION,
          description: [
            'Hotel booking and self check-in.',
            '',
            'Errors are RFC 9457 `application/problem+json` with a stable `code`. Every POST and PATCH',
            'accepts `Idempotency-Key` (1–255 characters, kept 24 h, scoped to the endpoint and the',
            'credential); a body that fails validation is answered `400` before its key is looked at',
            'and is not stored, so the corrected body may be sent with the same key. Money is',
            '`{ amount, currency }` in integer minor units; stay dates are',
            'hotel-local `YYYY-MM-DD`; instants are RFC 3339 UTC.',
          ].join('\n'),
          license: { name: 'MIT', identifier: 'MIT' },
          contact: { name: 'Innkeep maintainers (issues on the project tracker)' },
        },
        servers: [{ url: opts.publicBaseUrl }],
        ...(opts.webhooks ? { webhooks: opts.webhooks } : {}),
        tags: [
          { name: 'booking', description: 'Availability search, quotes and reservations' },
          { name: 'checkin', description: 'Self check-in sessions and steps' },
          { name: 'service', description: 'Health, keys and this document' },
          { name: 'payments', description: 'The payment provider: its settings for clients, its webhooks' },
          {
            name: 'Channels',
            description: 'Other sales channels (docs/api.md §9): iCal feeds and AlpineBits HotelData',
          },
          {
            name: 'Operator',
            description:
              'The hotel’s side (docs/api.md §7, §8): operator keys, hotels, audit log, events and webhooks',
          },
          {
            name: 'staff',
            description: 'People signing in (docs/api.md §11): invitations, passwords and the session cookie',
          },
        ],
        components: {
          securitySchemes: {
            reservationToken: {
              type: 'http',
              scheme: 'bearer',
              description: 'The `rat_…` access token returned once when the reservation is created.',
            },
            ...opts.securitySchemes,
          },
        },
      },
      transformObject: (document) => {
        if (!('openapiObject' in document)) return document.swaggerObject;
        applyHttpConventions(document.openapiObject.paths as never, opts.headersBySchema);
        // Webhook requests are authenticated by their signature header, not an OpenAPI scheme.
        const webhooks = (document.openapiObject as { webhooks?: Record<string, Record<string, unknown>> })
          .webhooks;
        for (const item of Object.values(webhooks ?? {})) {
          for (const operation of Object.values(item)) {
            if (operation && typeof operation === 'object')
              (operation as { security?: unknown[] }).security ??= [];
          }
        }
        return document.openapiObject;
      },
      refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    });

    // The document and the reference page share one encapsulated context: only they are compressed
    // and given cache validators (API responses are small and never cached).
    await app.register(docsPage);
  },
);
