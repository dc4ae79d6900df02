import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../infra/clock.ts';
import { hashSecret } from '../infra/crypto/tokens.ts';
import type { Database } from '../infra/db/database.ts';
import { AppError } from '../infra/http/problems.ts';
import { windowLimitExceeded } from '../infra/http/rate-limit-headers.ts';
import { OPERATOR_KEY_PATTERN, type OperatorKeyHasher } from './key-secret.ts';
import { keysRepository as repo } from './keys.repository.ts';
import { hasScope, type Principal, type Scope, seesHotel } from './scopes.ts';
import { cookieAllowed, type SessionAuthenticator, sessionCookieOf } from './session-credential.ts';

/** What a route needs: one scope, or `any` valid key. Every operator route must declare it. */
export type OperatorScope = Scope | 'any';

declare module 'fastify' {
  interface FastifyContextConfig {
    operatorScope?: OperatorScope;
  }
  interface FastifyRequest {
    operator?: Principal;
  }
}

export const OPERATOR_REALM = 'Bearer realm="innkeep-operator"';

export interface OperatorAuthOptions {
  db: Database;
  hash: OperatorKeyHasher;
  now: () => Date;
  /** Failed authentications per client address per window before `429`. */
  failureLimit: number;
  failureWindowSeconds: number;
  /** How long a verified key is trusted without asking the database (so a revocation elsewhere takes this long). */
  cacheMs: number;
}

export interface OperatorAuthenticator {
  /** The key's principal, or `401` (no, unknown or revoked key) / `429` (too many failures from this address). */
  authenticate(authorization: string | undefined, clientAddress: string): Promise<Principal>;
  /** Drops a revoked key from this process's cache at once. */
  forget(keyId: string): void;
}

/** The credential of `Authorization: Bearer <credential>`, or null. */
function bearerCredential(header: string | undefined): string | null {
  const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1] ?? null;
}

const unauthorized = (detail: string, invalidToken: boolean) =>
  new AppError('unauthorized', detail, {
    headers: {
      'www-authenticate': invalidToken ? `${OPERATOR_REALM}, error="invalid_token"` : OPERATOR_REALM,
    },
  });

/**
 * Verifies operator keys: HMAC of the presented key, one indexed lookup, then a short in-memory
 * cache so most requests cost no query. Only failures are counted against the client address (in
 * the database, shared by every process); a valid key is never blocked.
 */
export function createOperatorAuthenticator(opts: OperatorAuthOptions): OperatorAuthenticator {
  const cache = new Map<string, { principal: Principal; until: number }>();
  const MAX_CACHED = 10_000;

  async function fail(clientAddress: string): Promise<never> {
    const clientHash = hashSecret(`operator-auth\u0000${clientAddress}`);
    const now = opts.now();
    const window = opts.failureWindowSeconds;
    const counted = await repo.countFailure(opts.db, clientHash, now, window);
    const limited = windowLimitExceeded(
      'operator-auth',
      opts.failureLimit,
      window,
      counted,
      now,
      (s) => `Too many failed operator authentications from this address; retry in ${s} s.`,
    );
    if (limited) throw limited;
    throw unauthorized('This operator key is unknown or revoked.', true);
  }

  return {
    async authenticate(authorization, clientAddress) {
      if (authorization === undefined) {
        throw unauthorized('Send an operator key: `Authorization: Bearer ik_…`.', false);
      }
      const key = bearerCredential(authorization);
      if (key === null || !OPERATOR_KEY_PATTERN.test(key)) return fail(clientAddress);
      const hash = opts.hash(key).toString('base64');
      const cached = cache.get(hash);
      if (cached && cached.until > Date.now()) return cached.principal;
      const found = await repo.activeByHash(opts.db, opts.hash(key));
      if (!found) {
        cache.delete(hash);
        return fail(clientAddress);
      }
      const principal: Principal = {
        id: found.id,
        kind: 'key',
        name: found.name,
        scopes: found.scopes,
        hotelIds: found.hotelIds,
      };
      if (cache.size >= MAX_CACHED) cache.clear();
      cache.set(hash, { principal, until: Date.now() + opts.cacheMs });
      return principal;
    },
    forget(keyId) {
      for (const [hash, entry] of cache) if (entry.principal.id === keyId) cache.delete(hash);
    },
  };
}

/** The authenticator of the service's settings: the operator API's, and the AlpineBits endpoint's own. */
export function operatorAuthenticatorOf(ctx: {
  db: Database;
  operatorKeyHasher: OperatorKeyHasher;
  clock: Clock;
  config: Pick<
    Config,
    'operatorAuthFailureLimit' | 'operatorAuthFailureWindowSeconds' | 'operatorKeyCacheSeconds'
  >;
}): OperatorAuthenticator {
  return createOperatorAuthenticator({
    db: ctx.db,
    hash: ctx.operatorKeyHasher,
    now: () => ctx.clock.now(),
    failureLimit: ctx.config.operatorAuthFailureLimit,
    failureWindowSeconds: ctx.config.operatorAuthFailureWindowSeconds,
    cacheMs: ctx.config.operatorKeyCacheSeconds * 1000,
  });
}

/** The signed-in staff side of the guard (API.md 12): sessions, and the service's own origin. */
export interface SessionGuard {
  sessions: SessionAuthenticator;
  /** The origin of PUBLIC_BASE_URL: the only origin whose pages may change things with the cookie. */
  publicOrigin: string;
}

/**
 * The principal of a request: an operator key (`Authorization`) if one is sent, else the session
 * cookie of a signed-in person. A change made with the cookie from anywhere but the service's own
 * pages is `403`; on a cross-origin read the cookie counts for nothing (`401`), so a CORS request
 * is only ever authenticated by a key.
 */
async function principalOf(
  request: FastifyRequest,
  keys: OperatorAuthenticator,
  session: SessionGuard | undefined,
): Promise<Principal> {
  const authorization = request.headers.authorization;
  const cookie = authorization === undefined && session ? sessionCookieOf(request.headers.cookie) : null;
  if (cookie !== null && session) {
    if (cookieAllowed(request, session.publicOrigin)) {
      const principal = await session.sessions.authenticate(cookie);
      if (principal) return principal;
      throw new AppError('unauthorized', 'Your session has ended; sign in again.', {
        headers: { 'www-authenticate': OPERATOR_REALM },
      });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new AppError(
        'forbidden',
        'A change made with the session cookie must come from the service’s own pages.',
      );
    }
  }
  return keys.authenticate(authorization, request.ip);
}

/**
 * Guards every route of the plugin it is added to: authenticates (a key, or a person's session)
 * before the body is parsed or an idempotency key is claimed, then checks the route's
 * `config.operatorScope` (`403` without it): one check, whatever the credential. A route that
 * declares none is refused at start-up, so no operator route is ever left open.
 */
export function guardOperatorRoutes(
  app: FastifyInstance,
  authenticator: OperatorAuthenticator,
  session?: SessionGuard,
): void {
  app.addHook('onRoute', (route) => {
    if ((route.config as { operatorScope?: unknown } | undefined)?.operatorScope === undefined) {
      throw new Error(`operator route ${route.method} ${route.url} declares no config.operatorScope`);
    }
  });
  app.addHook('onRequest', async (request) => {
    const scope = request.routeOptions.config.operatorScope;
    const principal = await principalOf(request, authenticator, session);
    if (scope === undefined || (scope !== 'any' && !hasScope(principal, scope))) {
      const who = principal.kind === 'staff' ? 'Your role' : 'This operator key';
      throw new AppError('forbidden', `${who} lacks the scope \`${scope}\` this operation needs.`);
    }
    request.operator = principal;
  });
}

/** The verified key of a guarded request. */
export function operatorOf(request: FastifyRequest): Principal {
  if (!request.operator) throw new Error('operator route reached without authentication');
  return request.operator;
}

/** A hotel outside the key's hotels is `404 not_found`, as if it did not exist (API.md 7.2). */
export function requireVisibleHotel(principal: Principal, hotelId: string, exists: boolean): void {
  if (!exists || !seesHotel(principal, hotelId)) {
    throw new AppError('not_found', `No hotel has the id "${hotelId}".`);
  }
}
