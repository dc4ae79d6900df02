import type { Executor } from '../infra/db/database.ts';

/** A passkey (WebAuthn credential) as stored (migration 080). */
export interface StoredPasskey {
  id: number;
  publicId: string;
  staffId: number;
  credentialId: string;
  publicKey: Buffer;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const COLUMNS = `id, public_id, staff_id, credential_id, public_key, counter, transports, name, created_at,
  last_used_at`;

function toPasskey(r: Record<string, unknown>): StoredPasskey {
  return {
    id: Number(r.id),
    publicId: r.public_id as string,
    staffId: Number(r.staff_id),
    credentialId: r.credential_id as string,
    publicKey: Buffer.from(r.public_key as Uint8Array),
    counter: Number(r.counter),
    transports: (r.transports as string[] | null) ?? [],
    name: r.name as string,
    createdAt: r.created_at as Date,
    lastUsedAt: (r.last_used_at as Date | null) ?? null,
  };
}

/** SQL of `staff_passkeys`. */
export const staffPasskeysRepository = {
  /** A new passkey, or false when its credential id is registered already (to anyone). */
  async insert(
    db: Executor,
    p: {
      publicId: string;
      staffId: number;
      credentialId: string;
      publicKey: Uint8Array;
      counter: number;
      transports: string[];
      name: string;
      now: Date;
    },
  ): Promise<boolean> {
    const { rowCount } = await db.query(
      `INSERT INTO staff_passkeys (public_id, staff_id, credential_id, public_key, counter, transports, name, created_at)
       VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8)
       ON CONFLICT (credential_id) DO NOTHING`,
      [
        p.publicId,
        p.staffId,
        p.credentialId,
        Buffer.from(p.publicKey),
        p.counter,
        p.transports,
        p.name,
        p.now,
      ],
    );
    return rowCount > 0;
  },

  /** A person's passkeys, oldest first. */
  async ofStaff(db: Executor, staffId: number): Promise<StoredPasskey[]> {
    const { rows } = await db.query(
      `SELECT ${COLUMNS} FROM staff_passkeys WHERE staff_id = $1 ORDER BY created_at, public_id`,
      [staffId],
    );
    return rows.map(toPasskey);
  },

  async byPublicId(db: Executor, publicId: string): Promise<StoredPasskey | null> {
    const { rows } = await db.query(`SELECT ${COLUMNS} FROM staff_passkeys WHERE public_id = $1`, [publicId]);
    return rows[0] ? toPasskey(rows[0]) : null;
  },

  async byCredentialId(db: Executor, credentialId: string): Promise<StoredPasskey | null> {
    const { rows } = await db.query(`SELECT ${COLUMNS} FROM staff_passkeys WHERE credential_id = $1`, [
      credentialId,
    ]);
    return rows[0] ? toPasskey(rows[0]) : null;
  },

  /**
   * Records a use: the new signature counter and the time. Only if the counter is still the one
   * verified against, so two uses racing with one counter value cannot both count.
   */
  async recordUse(db: Executor, id: number, seenCounter: number, newCounter: number, now: Date) {
    const { rowCount } = await db.query(
      `UPDATE staff_passkeys SET counter = $3, last_used_at = $4 WHERE id = $1 AND counter = $2`,
      [id, seenCounter, newCounter, now],
    );
    return rowCount > 0;
  },

  /** Removes one of a person's passkeys; false when they have none by that id. */
  async remove(db: Executor, staffId: number, publicId: string): Promise<boolean> {
    const { rowCount } = await db.query('DELETE FROM staff_passkeys WHERE staff_id = $1 AND public_id = $2', [
      staffId,
      publicId,
    ]);
    return rowCount > 0;
  },
};
