import type { PromotionDef } from '../catalog/promotion.schema.ts';
import type { Executor } from '../infra/db/database.ts';

/** A code the operator API saved; `definition` null: deleted (it hides the catalogue's code). */
export type SavedPromotion = { code: string; definition: PromotionDef | null; updatedAt: Date };

/** The `promotions` table: the codes saved through the operator API (API.md 14.1). */
export const promotionsRepository = {
  async find(db: Executor, hotelId: string, code: string): Promise<SavedPromotion | null> {
    const { rows } = await db.query<{ code: string; definition: PromotionDef | null; updated_at: Date }>(
      'SELECT code, definition, updated_at FROM promotions WHERE hotel_id = $1 AND code = $2',
      [hotelId, code],
    );
    const row = rows[0];
    return row ? { code: row.code, definition: row.definition, updatedAt: row.updated_at } : null;
  },

  async list(db: Executor, hotelId: string): Promise<SavedPromotion[]> {
    const { rows } = await db.query<{ code: string; definition: PromotionDef | null; updated_at: Date }>(
      'SELECT code, definition, updated_at FROM promotions WHERE hotel_id = $1 ORDER BY code',
      [hotelId],
    );
    return rows.map((r) => ({ code: r.code, definition: r.definition, updatedAt: r.updated_at }));
  },

  /** Saves a code (or, with `definition` null, its deletion), replacing what was saved. */
  async save(
    db: Executor,
    hotelId: string,
    code: string,
    definition: PromotionDef | null,
    now: Date,
  ): Promise<void> {
    await db.query(
      `INSERT INTO promotions (hotel_id, code, definition, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (hotel_id, code) DO UPDATE SET definition = EXCLUDED.definition, updated_at = EXCLUDED.updated_at`,
      [hotelId, code, definition === null ? null : JSON.stringify(definition), now],
    );
  },
};
