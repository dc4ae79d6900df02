import type { AppContext } from '../../context.ts';
import { hashSecret, randomToken } from '../../infra/crypto/tokens.ts';
import type { Executor } from '../../infra/db/database.ts';
import { type Audited, type AuditScope, recordAudit } from '../../operator-access/audit-trail.ts';
import { scopesOfRole } from '../../operator-access/roles.ts';
import {
  newSessionSecret,
  SESSION_ABSOLUTE_MS,
  sessionHash,
} from '../../operator-access/session-credential.ts';
import { staffSessionsRepository } from '../../operator-access/staff-sessions.repository.ts';
import type { StaffAccount } from '../staff-accounts.repository.ts';
import { staffTokensRepository, type TokenPurpose } from '../staff-tokens.repository.ts';

/** What the staff commands use of the app. */
export type StaffContext = Pick<AppContext, 'db' | 'clock' | 'config' | 'encryptor' | 'catalog'>;

/**
 * What a staff command that changes something uses: also who acts (the request's audit scope, the
 * system's for the command line), as each change is audited.
 */
export type StaffWriteContext = StaffContext & Audited;

/** Invitation links live 72 hours, reset links one hour (API.md 12). */
export const TOKEN_HOURS: Record<TokenPurpose, number> = { invitation: 72, password_reset: 1 };
const LINK_PATH: Record<TokenPurpose, string> = {
  invitation: '/desk/welcome',
  password_reset: '/desk/reset',
};

export const tokenHash = (token: string): Buffer => hashSecret(`staff-token\u0000${token}`);
/**
 * Tokens: `stk_` + 32 random bytes (256 bits, above the contract's 128). The prefix lets the log
 * mask one in a request URL (`POST /auth/invitations/{token}/accept`), as it masks every secret.
 */
export const TOKEN_PATTERN = /^stk_[0-9a-z]{40,100}$/;

/**
 * Issues a one-time token and answers its link, the token in the fragment (`#`), which browsers
 * never send: it reaches no server log.
 */
export async function issueLink(
  tx: Executor,
  ctx: StaffContext,
  staffId: number,
  purpose: TokenPurpose,
): Promise<string> {
  const token = randomToken('stk_', 32);
  const now = ctx.clock.now();
  await staffTokensRepository.issue(tx, {
    hash: tokenHash(token),
    staffId,
    purpose,
    now,
    expiresAt: new Date(now.getTime() + TOKEN_HOURS[purpose] * 3600_000),
  });
  return `${ctx.config.publicBaseUrl}${LINK_PATH[purpose]}#${token}`;
}

/** The public form of an account (API.md 12). */
export function staffView(a: StaffAccount) {
  return {
    id: a.publicId,
    email: a.email,
    name: a.name,
    role: a.role,
    hotelIds: a.hotelIds,
    status: a.status,
    createdAt: a.createdAt.toISOString(),
  };
}

/** What a signed-in person is told of themself: as `GET /auth/me` and sign-in answer it. */
export function signedInView(a: StaffAccount) {
  return { user: staffView(a), scopes: scopesOfRole(a.role), hotelIds: a.hotelIds };
}

/** Opens a session for the account in `tx`; answers the cookie's secret. */
export async function startSession(tx: Executor, ctx: StaffContext, staffId: number): Promise<string> {
  const secret = newSessionSecret();
  const now = ctx.clock.now();
  await staffSessionsRepository.insert(tx, {
    hash: sessionHash(secret),
    staffId,
    now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
  });
  return secret;
}

/**
 * The audit entry of what a person did to their own account through `/auth` (API.md 12: signing
 * in and out, passwords, invitations), in the change's transaction. These routes carry no operator
 * credential, so the person is named as the actor (`scope` gives the request id); the entry
 * concerns the person's hotels.
 */
export function recordOwnAct(
  tx: Executor,
  scope: AuditScope,
  account: Pick<StaffAccount, 'publicId' | 'name' | 'hotelIds'>,
  action: `staff.${string}`,
  details?: Record<string, unknown>,
): Promise<void> {
  return recordAudit(tx, scope, {
    actor: { type: 'staff', id: account.publicId, name: account.name },
    hotelIds: account.hotelIds,
    action,
    target: { type: 'staff', id: account.publicId },
    details,
  });
}
