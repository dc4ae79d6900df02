import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import {
  type CompactJWSHeaderParameters,
  CompactSign,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  type JWTPayload,
  type JWTVerifyOptions,
  jwtVerify,
} from 'jose';
import type { Clock } from '../infra/clock.ts';
import type { Encryptor } from '../infra/crypto/encryption.ts';
import { type Database, type Executor, isTransaction } from '../infra/db/database.ts';
import { type PeriodicJob, startPeriodicJob } from '../infra/jobs/periodic-job.ts';
import type { AuditActor } from '../operator-access/audit-entries.repository.ts';
import { recordAudit, SYSTEM_SCOPE } from '../operator-access/audit-trail.ts';
import { SignatureCache } from './signature-cache.ts';
import { type PublicJwk, signingRepository as repo, type StoredSigningKey } from './signing.repository.ts';

export const SIGNING_ALG = 'EdDSA';

/** A public key as the JWKS publishes it (RFC 7517 / RFC 8037). */
export interface Jwk extends PublicJwk {
  kid: string;
  alg: typeof SIGNING_ALG;
  use: 'sig';
}

interface CachedKey {
  kid: string;
  publicJwk: PublicJwk;
  publicKey: KeyObject;
  /** Decrypted on first use: only the current key ever signs. */
  privateKey: KeyObject | null;
  encryptedPrivateKey: Buffer;
  signedUntil: number;
}

/** AAD of a stored private key: bound to its kid, so keys cannot be swapped between rows. */
const encryptionContext = (kid: string) => `signing-key:${kid}`;

/** How often a process re-reads the keys, to pick up a rotation made by another process or the CLI. */
const REFRESH_MS = 60_000;
/** Subjects whose latest signature a process keeps (a few KiB each). */
const CACHED_SIGNATURES = 2_000;
/** Unknown kids trigger a reload, but no more often than this (a forged kid must not hammer the db). */
const UNKNOWN_KID_RELOAD_MS = 1_000;

async function newKey(
  encryptor: Encryptor,
  now: Date,
): Promise<Omit<StoredSigningKey, 'retiredAt' | 'signedUntil'>> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const { kty, crv, x } = publicKey.export({ format: 'jwk' });
  const publicJwk = { kty, crv, x } as PublicJwk;
  const kid = await calculateJwkThumbprint(publicJwk);
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  return { kid, publicJwk, privateKey: encryptor.encrypt(der, encryptionContext(kid)), createdAt: now };
}

/**
 * Names the DATA_ENCRYPTION_KEY that wraps a set of signing keys (a one-way fingerprint). Every
 * process of a deployment shares that key, hence one keyring; a process configured with another
 * key gets keys of its own instead of failing on ones it cannot unwrap.
 */
export function keyringOf(dataEncryptionKey: Buffer): string {
  return createHash('sha256')
    .update('innkeep signing keyring\u0000')
    .update(dataEncryptionKey)
    .digest('base64url')
    .slice(0, 22);
}

export function toJwk(kid: string, publicJwk: PublicJwk): Jwk {
  return { kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x, kid, alg: SIGNING_ALG, use: 'sig' };
}

/**
 * Ed25519 signing keys kept in the database: generated on first start, one current key, and
 * rotation that adds a new current key while older ones stay published until every signature they
 * made has expired (each key records the latest `exp` it signed). Keys are cached per process and
 * re-read periodically and whenever an unknown `kid` turns up, so processes sharing one database
 * sign and verify alike.
 */
export class SigningKeyStore {
  private keys = new Map<string, CachedKey>();
  private currentKid = '';
  private loadedAt = 0;
  private unknownKidReloadAt = 0;
  private refresher: PeriodicJob | undefined;
  private readonly signatures = new SignatureCache(CACHED_SIGNATURES);

  private constructor(
    private readonly db: Database,
    private readonly encryptor: Encryptor,
    private readonly clock: Clock,
    private readonly keyring: string,
  ) {}

  /** Loads the keys of `keyring`, creating the first one if there is none. */
  static async open(deps: {
    db: Database;
    encryptor: Encryptor;
    clock: Clock;
    keyring: string;
  }): Promise<SigningKeyStore> {
    const store = new SigningKeyStore(deps.db, deps.encryptor, deps.clock, deps.keyring);
    const existing = await repo.current(deps.db, deps.keyring);
    if (!existing) {
      await deps.db.transaction(async (tx) => {
        await repo.lock(tx);
        if (!(await repo.current(tx, deps.keyring))) {
          await repo.insert(tx, deps.keyring, await newKey(deps.encryptor, deps.clock.now()));
        }
      });
    }
    await store.reload();
    return store;
  }

  /** Keyrings other than this one in the database: a sign that processes disagree on DATA_ENCRYPTION_KEY. */
  otherKeyrings(): Promise<number> {
    return repo.otherKeyrings(this.db, this.keyring);
  }

  /** Makes a new current key; the previous one keeps verifying until its signatures expire. */
  async rotate(actor?: AuditActor): Promise<{ kid: string; retired: string[] }> {
    const result = await this.db.transaction(async (tx) => {
      await repo.lock(tx);
      const now = this.clock.now();
      const retired = await repo.retireCurrent(tx, this.keyring, now);
      const key = await newKey(this.encryptor, now);
      await repo.insert(tx, this.keyring, key);
      // A new key signs for every hotel (API.md 12: the command line's changes are audited too).
      // Only the command line rotates, outside any request: its `actor`, no request id.
      await recordAudit(tx, SYSTEM_SCOPE, {
        actor,
        hotelIds: null,
        action: 'signing_key.rotated',
        target: { type: 'signing_key', id: key.kid },
        details: { retired },
      });
      return { kid: key.kid, retired };
    });
    await this.reload();
    return result;
  }

  get currentKeyId(): string {
    return this.currentKid;
  }

  /**
   * Signs `payload` (which must carry `exp`, in seconds) as a compact JWS with the current key.
   * The key's publication is extended to `exp` before the signature is handed out.
   *
   * `tx`: the caller's transaction, when the signature is part of a write (its response is stored
   * with it). The extension then commits with that write, and is remembered here only once it has.
   */
  async sign(payload: JWTPayload & { exp: number }, tx?: Executor): Promise<string> {
    await this.refreshIfStale(tx);
    return this.signWith(this.currentKey(), JSON.stringify(payload), payload.exp, tx);
  }

  /**
   * Signs `payload` once per content and key: while `subject` (a check-in session) asks with the
   * same payload and the current key has not changed, the JWS made before is answered rather than
   * signed again. A rotation changes the current key, so no signature by a retired key is served.
   * A signature made in `tx` is kept only once `tx` has committed.
   */
  async signOnce(subject: string, payload: JWTPayload & { exp: number }, tx?: Executor): Promise<string> {
    await this.refreshIfStale(tx);
    const key = this.currentKey();
    const json = JSON.stringify(payload);
    const digest = SignatureCache.digestOf(json);
    const cached = this.signatures.get(subject, digest, key.kid);
    if (cached) return cached;
    const jws = await this.signWith(key, json, payload.exp, tx);
    const keep = () => this.signatures.set(subject, { digest, kid: key.kid, jws });
    if (!tx) keep();
    else if (isTransaction(tx)) tx.onEnd(async (committed) => (committed ? keep() : undefined));
    return jws;
  }

  private async refreshIfStale(ex?: Executor): Promise<void> {
    if (Date.now() - this.loadedAt > REFRESH_MS) await this.reload(ex);
  }

  private currentKey(): CachedKey {
    const key = this.keys.get(this.currentKid);
    if (!key) throw new Error('no current signing key');
    return key;
  }

  private async signWith(key: CachedKey, json: string, exp: number, tx?: Executor): Promise<string> {
    const expMs = exp * 1000;
    if (expMs > key.signedUntil) {
      await repo.extendSignedUntil(tx ?? this.db, key.kid, new Date(expMs));
      const remember = () => {
        key.signedUntil = Math.max(key.signedUntil, expMs);
      };
      if (!tx) remember();
      else if (isTransaction(tx)) tx.onEnd(async (committed) => (committed ? remember() : undefined));
    }
    key.privateKey ??= createPrivateKey({
      key: this.encryptor.decrypt(key.encryptedPrivateKey, encryptionContext(key.kid)),
      format: 'der',
      type: 'pkcs8',
    });
    const header: CompactJWSHeaderParameters = { alg: SIGNING_ALG, kid: key.kid, typ: 'JWT' };
    return new CompactSign(new TextEncoder().encode(json)).setProtectedHeader(header).sign(key.privateKey);
  }

  /** The JWKS: public keys only, read from the database so a rotation anywhere shows at once. */
  async publishedKeys(): Promise<Jwk[]> {
    const keys = await repo.published(this.db, this.keyring, this.clock.now());
    return keys.map((k) => toJwk(k.kid, k.publicJwk));
  }

  /** Verifies a signature made by any process of this deployment (reloading on an unknown kid). */
  async verify(jws: string, options: JWTVerifyOptions = {}) {
    const { kid } = decodeProtectedHeader(jws);
    if (
      typeof kid === 'string' &&
      !this.keys.has(kid) &&
      Date.now() - this.unknownKidReloadAt > UNKNOWN_KID_RELOAD_MS
    ) {
      this.unknownKidReloadAt = Date.now();
      await this.reload();
    }
    const key = typeof kid === 'string' ? this.keys.get(kid) : undefined;
    if (!key) throw new Error('unknown signing key');
    return jwtVerify(jws, key.publicKey, {
      algorithms: [SIGNING_ALG],
      currentDate: this.clock.now(),
      ...options,
    });
  }

  /** `ex`: the caller's transaction, if any (the embedded engine has one connection only). */
  async reload(ex: Executor = this.db): Promise<void> {
    const stored = await repo.all(ex, this.keyring);
    const next = new Map<string, CachedKey>();
    let current = '';
    for (const row of stored) {
      const cached = this.keys.get(row.kid);
      next.set(row.kid, {
        kid: row.kid,
        publicJwk: row.publicJwk,
        publicKey: cached?.publicKey ?? createPublicKey({ key: { ...row.publicJwk }, format: 'jwk' }),
        privateKey: cached?.privateKey ?? null,
        encryptedPrivateKey: row.privateKey,
        signedUntil: Math.max(row.signedUntil?.getTime() ?? 0, cached?.signedUntil ?? 0),
      });
      if (row.retiredAt === null) current = row.kid;
    }
    this.keys = next;
    if (current) this.currentKid = current;
    this.loadedAt = Date.now();
  }

  /** Reloads every `intervalMs` on the periodic-job primitive (a failure is logged, the next one still comes). */
  startAutoRefresh(log: { warn(obj: unknown, msg: string): void }, intervalMs = REFRESH_MS): void {
    this.refresher = startPeriodicJob({
      name: 'signing key refresh',
      intervalMs,
      log,
      run: () => this.reload(),
    });
  }

  /** Stops the reloads, waiting for one under way. */
  async stop(): Promise<void> {
    await this.refresher?.stop();
  }
}
