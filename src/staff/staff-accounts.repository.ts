import type { Executor } from '../infra/db/database.ts';
import type { Role } from '../operator-access/roles.ts';

export type StaffStatus = 'invited' | 'active' | 'disabled';
export type StaffLanguage = 'en' | 'es' | 'pt';

/** A staff account as stored (migration 080), with its hotels (null = every hotel). */
export interface StaffAccount {
  id: number;
  publicId: string;
  email: string;
  name: string;
  role: Role;
  hotelIds: string[] | null;
  status: StaffStatus;
  language: StaffLanguage;
  passwordHash: string | null;
  createdAt: Date;
}

const COLUMNS = `a.id, a.public_id, a.email, a.name, a.role, a.every_hotel, a.status, a.language, a.password_hash,
  a.created_at, ARRAY(SELECT h.hotel_id FROM staff_hotels h WHERE h.staff_id = a.id ORDER BY h.hotel_id) AS hotel_ids`;

function toAccount(r: Record<string, unknown>): StaffAccount {
  return {
    id: Number(r.id),
    publicId: r.public_id as string,
    email: r.email as string,
    name: r.name as string,
    role: r.role as Role,
    hotelIds: r.every_hotel ? null : (r.hotel_ids as string[]),
    status: r.status as StaffStatus,
    language: r.language as StaffLanguage,
    passwordHash: (r.password_hash as string | null) ?? null,
    createdAt: r.created_at as Date,
  };
}

/** SQL of `staff_accounts`; its hotels are written through `staffHotelsRepository`. */
export const staffAccountsRepository = {
  /** A new account, or null when the e-mail (in any case) already has one. */
  async insert(
    db: Executor,
    a: {
      publicId: string;
      email: string;
      name: string;
      role: Role;
      everyHotel: boolean;
      language: StaffLanguage;
      createdBy: string;
    },
  ): Promise<number | null> {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO staff_accounts (public_id, email, name, role, every_hotel, language, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
      [a.publicId, a.email, a.name, a.role, a.everyHotel, a.language, a.createdBy],
    );
    return rows[0] ? Number(rows[0].id) : null;
  },

  async byPublicId(db: Executor, publicId: string, options: { forUpdate?: boolean } = {}) {
    const { rows } = await db.query(
      `SELECT ${COLUMNS} FROM staff_accounts a WHERE a.public_id = $1${options.forUpdate ? ' FOR UPDATE OF a' : ''}`,
      [publicId],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  },

  async byId(db: Executor, id: number, options: { forUpdate?: boolean } = {}) {
    const { rows } = await db.query(
      `SELECT ${COLUMNS} FROM staff_accounts a WHERE a.id = $1${options.forUpdate ? ' FOR UPDATE OF a' : ''}`,
      [id],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  },

  async byEmail(db: Executor, email: string): Promise<StaffAccount | null> {
    const { rows } = await db.query(
      `SELECT ${COLUMNS} FROM staff_accounts a WHERE lower(a.email) = lower($1)`,
      [email],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  },

  /** Every account, oldest first; `within` (when not null) keeps accounts whose hotels all lie in it. */
  async list(db: Executor, within: readonly string[] | null): Promise<StaffAccount[]> {
    const { rows } = await db.query(
      `SELECT ${COLUMNS} FROM staff_accounts a
       WHERE $1::text[] IS NULL OR (NOT a.every_hotel AND NOT EXISTS (
         SELECT 1 FROM staff_hotels h WHERE h.staff_id = a.id AND NOT (h.hotel_id = ANY($1::text[]))))
       ORDER BY a.created_at, a.public_id`,
      [within],
    );
    return rows.map(toAccount);
  },

  async update(
    db: Executor,
    id: number,
    change: { name?: string; role?: Role; everyHotel?: boolean; status?: StaffStatus; passwordHash?: string },
    now: Date,
  ): Promise<void> {
    await db.query(
      `UPDATE staff_accounts SET name = coalesce($2, name), role = coalesce($3, role),
         every_hotel = coalesce($4, every_hotel), status = coalesce($5, status),
         password_hash = coalesce($6, password_hash), updated_at = $7
       WHERE id = $1`,
      [
        id,
        change.name ?? null,
        change.role ?? null,
        change.everyHotel ?? null,
        change.status ?? null,
        change.passwordHash ?? null,
        now,
      ],
    );
  },
};
