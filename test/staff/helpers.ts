import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { createEncryptor } from '../../src/infra/crypto/encryption.ts';
import { SYSTEM_SCOPE } from '../../src/operator-access/audit-trail.ts';
import { operatorKeyHasher } from '../../src/operator-access/key-secret.ts';
import type { Role } from '../../src/operator-access/roles.ts';
import { SCOPES } from '../../src/operator-access/scopes.ts';
import { inviteStaff } from '../../src/staff/commands/invite-staff.ts';
import { insertCliKey } from '../helpers/operator-key.ts';
import { type Cleanup, makeHotel, startTestApp, type TestApp } from '../helpers/test-app.ts';

export const AUTH = '/api/v1/auth';
export const OPERATOR = '/api/v1/operator';
export const STRONG = 'correct horse battery staple orbit';

export interface StaffApp {
  t: TestApp;
  hotels: [HotelDef, HotelDef];
  /** The service's own origin: what its pages send as `Origin`. */
  origin: string;
}

export async function startStaffApp(cleanup: Cleanup, env: Record<string, string> = {}): Promise<StaffApp> {
  const hotels: [HotelDef, HotelDef] = [makeHotel({ name: 'Harbour View' }), makeHotel({ name: 'Old Town' })];
  const t = await startTestApp(cleanup, { hotels, env: { LOG_LEVEL: 'silent', ...env } });
  return { t, hotels, origin: new URL(t.config.publicBaseUrl).origin };
}

/** Invites a person as the command line does (every right); answers the account id and the link's token. */
export async function inviteAsCli(
  s: StaffApp,
  who: { email: string; name?: string; role: Role; hotelIds?: string[] },
): Promise<{ id: string; token: string }> {
  const ctx = {
    db: s.t.db,
    clock: s.t.clock,
    config: s.t.config,
    encryptor: createEncryptor(s.t.config.dataEncryptionKey as Buffer),
    catalog: s.t.runtime.catalog,
    audit: SYSTEM_SCOPE,
  };
  const { account, link } = await inviteStaff(
    ctx,
    { id: 'cli', scopes: [...SCOPES], hotelIds: null },
    { name: 'Test Person', ...who },
  );
  return { id: account.id, token: link.split('#')[1] as string };
}

/** The `innkeep_session=…` pair of a response's Set-Cookie, to send back as `Cookie`. */
export function sessionOf(setCookie: string | string[] | undefined): string {
  const header = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  const pair = header?.split(';')[0];
  if (!pair?.startsWith('innkeep_session=')) throw new Error(`no session cookie in ${header}`);
  return pair;
}

/** An active person signed in: their id and cookie. */
export async function activeStaff(
  s: StaffApp,
  who: { email: string; name?: string; role: Role; hotelIds?: string[] },
): Promise<{ id: string; cookie: string }> {
  const { id, token } = await inviteAsCli(s, who);
  const accepted = await s.t.inject({
    method: 'POST',
    url: `${AUTH}/invitations/${token}/accept`,
    headers: { origin: s.origin },
    payload: { password: STRONG },
  });
  if (accepted.statusCode !== 201) throw new Error(`not accepted: ${accepted.body}`);
  return { id, cookie: sessionOf(accepted.headers['set-cookie']) };
}

/** Headers of a request from the desk: the cookie and the service's own origin. */
export const fromDesk = (s: StaffApp, cookie: string) => ({ cookie, origin: s.origin });

const made = new WeakMap<TestApp, Set<string>>();

/**
 * A fresh session of the person `email` with `role` (made, invited and accepted the first time):
 * the `Cookie` value to send. Each call signs in again, so the session is new at the test clock.
 */
export async function staffSessionOf(
  t: TestApp,
  email: string,
  role: Role,
  hotelIds?: string[],
): Promise<string> {
  const known = made.get(t) ?? new Set<string>();
  made.set(t, known);
  if (!known.has(email)) {
    const s = {
      t,
      hotels: [] as unknown as [HotelDef, HotelDef],
      origin: new URL(t.config.publicBaseUrl).origin,
    };
    await activeStaff(s, { email, role, ...(hotelIds ? { hotelIds } : {}) });
    known.add(email);
  }
  const r = await t.inject({ method: 'POST', url: `${AUTH}/sign-in`, payload: { email, password: STRONG } });
  if (r.statusCode !== 200) throw new Error(`not signed in: ${r.body}`);
  return sessionOf(r.headers['set-cookie']);
}

/** Audit entries of `GET /operator/audit-log?<query>`, read with a key holding only `audit:read`. */
export async function auditEntries(t: TestApp, query: string): Promise<Array<Record<string, unknown>>> {
  const { secret } = await t.db.transaction((tx) =>
    insertCliKey(tx, operatorKeyHasher(t.config.dataEncryptionKey as Buffer), {
      name: 'auditor',
      scopes: ['audit:read'],
      hotelIds: null,
    }),
  );
  const res = await t.inject({
    method: 'GET',
    url: `${OPERATOR}/audit-log?limit=200&${query}`,
    headers: { authorization: `Bearer ${secret}` },
  });
  if (res.statusCode !== 200) throw new Error(`audit log not read: ${res.statusCode} ${res.body}`);
  return res.json().data;
}
