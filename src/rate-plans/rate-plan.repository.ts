import type { PlanPricing } from '../catalog/rate-plan.model.ts';
import type { Executor } from '../infra/db/database.ts';

/** A hotel's rate plan as the last RatePlans message left it (table `channel_rate_plans`). */
export type StoredRatePlan = { code: string; pricing: PlanPricing; version: number };

type Row = { rate_plan_code: string; pricing: PlanPricing | string; version: string | number };

const toPlan = (row: Row): StoredRatePlan => ({
  code: row.rate_plan_code,
  pricing: typeof row.pricing === 'string' ? (JSON.parse(row.pricing) as PlanPricing) : row.pricing,
  version: Number(row.version),
});

/** The SQL of `channel_rate_plans`; every method takes the caller's executor (a transaction for writes). */
export const ratePlanRepository = {
  async forHotel(ex: Executor, hotelId: string): Promise<StoredRatePlan[]> {
    const { rows } = await ex.query<Row>(
      `SELECT rate_plan_code, pricing, version FROM channel_rate_plans
        WHERE hotel_id = $1 ORDER BY rate_plan_code`,
      [hotelId],
    );
    return rows.map(toPlan);
  },

  /** The plan, its row locked until the transaction ends (an Overlay reads, merges and writes it). */
  async lock(ex: Executor, hotelId: string, code: string): Promise<StoredRatePlan | null> {
    const { rows } = await ex.query<Row>(
      `SELECT rate_plan_code, pricing, version FROM channel_rate_plans
        WHERE hotel_id = $1 AND rate_plan_code = $2 FOR UPDATE`,
      [hotelId, code],
    );
    return rows[0] ? toPlan(rows[0]) : null;
  },

  async save(ex: Executor, hotelId: string, code: string, pricing: PlanPricing): Promise<void> {
    await ex.query(
      `INSERT INTO channel_rate_plans (hotel_id, rate_plan_code, pricing) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (hotel_id, rate_plan_code)
       DO UPDATE SET pricing = EXCLUDED.pricing, version = channel_rate_plans.version + 1, updated_at = now()`,
      [hotelId, code, JSON.stringify(pricing)],
    );
  },

  /** Whether a plan was there to remove. */
  async remove(ex: Executor, hotelId: string, code: string): Promise<boolean> {
    const { rows } = await ex.query(
      'DELETE FROM channel_rate_plans WHERE hotel_id = $1 AND rate_plan_code = $2 RETURNING rate_plan_code',
      [hotelId, code],
    );
    return rows.length > 0;
  },

  /** A complete set replaces every plan of the hotel: the old ones go first. */
  async removeAll(ex: Executor, hotelId: string): Promise<void> {
    await ex.query('DELETE FROM channel_rate_plans WHERE hotel_id = $1', [hotelId]);
  },
};
