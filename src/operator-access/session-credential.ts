import type { FastifyRequest } from 'fastify';
import { hashSecret, randomToken } from '../infra/crypto/tokens.ts';
import type { Database } from '../infra/db/database.ts';
import { scopesOfRole } from './roles.ts';
import type { Principal } from './scopes.ts';
import { staffSessionsRepository as sessions } from './staff-sessions.repository.ts';

/** The session cookie of API.md 12. */
export const SESSION_COOKIE = 'innkeep_session';
/** 32 random bytes: 256 bits, above the contract's 128. */
const SESSION_BYTES = 32;
const SESSION_PATTERN = /^[0-9a-z]{40,100}$/;
/** A session ends 7 days after sign-in, however much it is used. */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 3600 * 1000;
/** `last_used_at` is written at most this often, so a busy desk does not write on every request. */
const TOUCH_EVERY_MS = 60_000;

export function newSessionSecret(): string {
  return randomToken('', SESSION_BYTES);
}

export const sessionHash = (secret: string): Buffer => hashSecret(`staff-session\u0000${secret}`);

/** The session secret of a `Cookie` header, or null (absent or not shaped like one). */
export function sessionCookieOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return SESSION_PATTERN.test(value) ? value : null;
  }
  return null;
}

/** `Set-Cookie` for a new session, and for ending one (`secret` null). */
export function sessionCookie(secret: string | null, publicBaseUrl: string): string {
  const secure = publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  const base = `HttpOnly; SameSite=Strict; Path=/${secure}`;
  return secret === null
    ? `${SESSION_COOKIE}=; Max-Age=0; ${base}`
    : `${SESSION_COOKIE}=${secret}; Max-Age=${SESSION_ABSOLUTE_MS / 1000}; ${base}`;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Where a cookie-carrying request comes from (API.md 12): `cross` (another origin's page or a
 * cross-origin CORS request: the cookie is not accepted), `own` (the service's own pages), or
 * `unknown` (no `Origin`, no `Sec-Fetch-Site`: a plain GET of a page or a non-browser client).
 */
export function requestOrigin(
  request: Pick<FastifyRequest, 'headers'>,
  publicOrigin: string,
): 'own' | 'cross' | 'unknown' {
  const origin = request.headers.origin;
  if (origin !== undefined) return origin === publicOrigin ? 'own' : 'cross';
  const site = request.headers['sec-fetch-site'];
  if (site === undefined || site === 'none') return 'unknown';
  return site === 'same-origin' ? 'own' : 'cross';
}

/** A change made with the cookie must come from the service's own pages; a read must not be cross-origin. */
export function cookieAllowed(
  request: Pick<FastifyRequest, 'headers' | 'method'>,
  publicOrigin: string,
): boolean {
  const from = requestOrigin(request, publicOrigin);
  return SAFE_METHODS.has(request.method) ? from !== 'cross' : from === 'own';
}

export interface SessionAuthenticator {
  /** The person of a live session, as a principal with their role's scopes and hotels; null when none. */
  authenticate(secret: string): Promise<(Principal & { staffId: number }) | null>;
}

export function createSessionAuthenticator(opts: {
  db: Database;
  now: () => Date;
  idleMinutes: number;
}): SessionAuthenticator {
  return {
    async authenticate(secret) {
      const hash = sessionHash(secret);
      const now = opts.now();
      const idleSince = new Date(now.getTime() - opts.idleMinutes * 60_000);
      const holder = await sessions.liveHolder(opts.db, hash, now, idleSince);
      if (!holder) return null;
      if (now.getTime() - holder.lastUsedAt.getTime() >= TOUCH_EVERY_MS)
        await sessions.touch(opts.db, hash, now);
      return {
        id: holder.publicId,
        kind: 'staff',
        name: holder.name,
        role: holder.role,
        staffId: holder.staffId,
        scopes: scopesOfRole(holder.role),
        hotelIds: holder.hotelIds,
      };
    },
  };
}
