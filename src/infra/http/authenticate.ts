import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AppError } from './problems.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The bearer credential the route's `authenticate` hook accepted (absent on an optional one). */
    credential?: string;
  }
}

/** The token of `Authorization: Bearer <token>`; undefined when the header is absent or not of that form. */
export function bearerCredential(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
}

/**
 * How each kind of route authenticates. A route declares its scheme with
 * `preHandler: authenticate('…')`; a new credential (an operator key, say) is a new entry here.
 * The hook checks only the form of the credential: what it grants is the service's decision.
 */
const SCHEMES = {
  /** Changing a reservation: its access token is required. */
  reservationToken: {
    optional: false,
    hint: 'Send the reservation access token as "Authorization: Bearer rat_…".',
  },
  /** Opening a check-in session: the token is one of two proofs, so it may be absent, not malformed. */
  reservationTokenIfSent: { optional: true, hint: 'Authorization must be `Bearer <accessToken>`.' },
} as const;

export type AuthScheme = keyof typeof SCHEMES;

export function authenticate(scheme: AuthScheme): preHandlerAsyncHookHandler {
  const { optional, hint } = SCHEMES[scheme];
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (header === undefined && optional) return;
    const credential = bearerCredential(header);
    if (!credential) {
      throw new AppError('unauthorized', hint, { headers: { 'www-authenticate': 'Bearer realm="innkeep"' } });
    }
    request.credential = credential;
  };
}

/** The credential of a route that requires one; a route that forgot `authenticate` fails loudly. */
export function requiredCredential(request: FastifyRequest): string {
  if (request.credential === undefined) throw new Error('this route does not declare authenticate()');
  return request.credential;
}
