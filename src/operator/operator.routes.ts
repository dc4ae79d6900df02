import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.ts';
import { auditRoutes } from './audit.routes.ts';
import { calendarRoutes } from './calendar.routes.ts';
import { guestRegisterRoutes } from './guest-register.routes.ts';
import { hotelsRoutes } from './hotels.routes.ts';
import { icalOperatorRoutes } from './ical.routes.ts';
import { keysRoutes } from './keys.routes.ts';
import type { KeysDeps } from './keys.service.ts';
import { createOperatorAuthenticator, guardOperatorRoutes } from './operator-auth.ts';
import { reservationListRoutes } from './reservation-list.routes.ts';
import { reservationsRoutes } from './reservations.routes.ts';
import { stayRoutes } from './stay.routes.ts';
import { webhooksRoutes } from './webhooks.routes.ts';

/**
 * The operator API (API.md 7), under `/api/v1/operator`: every route in this plugin is guarded by
 * an operator key and declares the scope it needs.
 */
export const operatorRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const authenticator = createOperatorAuthenticator({
    db: ctx.db,
    hash: ctx.operatorKeyHasher,
    now: () => ctx.clock.now(),
    failureLimit: ctx.config.operatorAuthFailureLimit,
    failureWindowSeconds: ctx.config.operatorAuthFailureWindowSeconds,
    cacheMs: ctx.config.operatorKeyCacheSeconds * 1000,
  });
  guardOperatorRoutes(app, authenticator);
  const deps: KeysDeps = {
    db: ctx.db,
    hash: ctx.operatorKeyHasher,
    knownHotel: (id) => ctx.catalog.get(id) !== undefined,
    now: () => ctx.clock.now(),
  };
  await app.register(keysRoutes, { deps, authenticator });
  await app.register(hotelsRoutes, { catalog: ctx.catalog });
  await app.register(auditRoutes, { db: ctx.db });
  await app.register(reservationListRoutes, { ctx });
  await app.register(guestRegisterRoutes, { ctx });
  await app.register(calendarRoutes, { db: ctx.db, catalog: ctx.catalog });
  await app.register(icalOperatorRoutes, { ctx });
  await app.register(reservationsRoutes, { ctx });
  await app.register(stayRoutes, { ctx });
  await app.register(webhooksRoutes, {
    deps: {
      db: ctx.db,
      encryptor: ctx.encryptor,
      allowPrivate: ctx.config.webhookAllowPrivate,
      knownHotel: (id) => ctx.catalog.get(id) !== undefined,
    },
  });
};
