import type { Executor } from '../infra/db/database.ts';

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
}

export interface StoredSigningKey {
  kid: string;
  publicJwk: PublicJwk;
  privateKey: Buffer;
  createdAt: Date;
  retiredAt: Date | null;
  signedUntil: Date | null;
}

interface Row {
  kid: string;
  public_jwk: PublicJwk;
  private_key: Uint8Array;
  created_at: Date;
  retired_at: Date | null;
  signed_until: Date | null;
}

const COLUMNS = 'kid, public_jwk, private_key, created_at, retired_at, signed_until';

function toKey(row: Row): StoredSigningKey {
  return {
    kid: row.kid,
    publicJwk: row.public_jwk,
    privateKey: Buffer.from(row.private_key),
    createdAt: row.created_at,
    retiredAt: row.retired_at,
    signedUntil: row.signed_until,
  };
}

/** Any constant works; it only has to be the same in every process of a deployment. */
const KEY_LOCK = 7_150_042;

/** Data access for the session-signing keys. */
export const signingRepository = {
  /** Serialises key creation and rotation across processes (held until the transaction ends). */
  async lock(tx: Executor): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [KEY_LOCK]);
  },

  async all(db: Executor, keyring: string): Promise<StoredSigningKey[]> {
    const { rows } = await db.query<Row>(
      `SELECT ${COLUMNS} FROM signing_keys WHERE keyring = $1 ORDER BY created_at, kid`,
      [keyring],
    );
    return rows.map(toKey);
  },

  async current(db: Executor, keyring: string): Promise<StoredSigningKey | null> {
    const { rows } = await db.query<Row>(
      `SELECT ${COLUMNS} FROM signing_keys WHERE keyring = $1 AND retired_at IS NULL`,
      [keyring],
    );
    return rows[0] ? toKey(rows[0]) : null;
  },

  /** Whether keys wrapped by another DATA_ENCRYPTION_KEY exist (processes of one deployment disagree). */
  async otherKeyrings(db: Executor, keyring: string): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(DISTINCT keyring)::int AS n FROM signing_keys WHERE keyring <> $1',
      [keyring],
    );
    return rows[0]?.n ?? 0;
  },

  /** The keys a verifier may need at `now`: the current one and retired ones with unexpired signatures. */
  async published(db: Executor, keyring: string, now: Date): Promise<StoredSigningKey[]> {
    const { rows } = await db.query<Row>(
      `SELECT ${COLUMNS} FROM signing_keys
       WHERE keyring = $1 AND (retired_at IS NULL OR signed_until > $2)
       ORDER BY retired_at IS NULL DESC, created_at DESC, kid`,
      [keyring, now],
    );
    return rows.map(toKey);
  },

  async insert(
    tx: Executor,
    keyring: string,
    key: Omit<StoredSigningKey, 'retiredAt' | 'signedUntil'>,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO signing_keys (kid, keyring, public_jwk, private_key, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [key.kid, keyring, JSON.stringify(key.publicJwk), key.privateKey, key.createdAt],
    );
  },

  async retireCurrent(tx: Executor, keyring: string, now: Date): Promise<string[]> {
    const { rows } = await tx.query<{ kid: string }>(
      'UPDATE signing_keys SET retired_at = $2 WHERE keyring = $1 AND retired_at IS NULL RETURNING kid',
      [keyring, now],
    );
    return rows.map((r) => r.kid);
  },

  /** Records that `kid` signed something valid until `exp`, so the JWKS keeps it until then. */
  async extendSignedUntil(db: Executor, kid: string, exp: Date): Promise<void> {
    await db.query(
      `UPDATE signing_keys SET signed_until = $2
       WHERE kid = $1 AND (signed_until IS NULL OR signed_until < $2)`,
      [kid, exp],
    );
  },
};
