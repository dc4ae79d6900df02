import type { Executor } from '../infra/db/database.ts';
import { named } from './calendar.repository.ts';
import type { PriceNightOverride } from './hotel-nights.ts';

const PRICE_COLUMNS = {
  base: ['base', 'integer'],
  includedAdults: ['included_adults', 'integer'],
  extraAdult: ['extra_adult', 'integer'],
  child: ['child', 'integer'],
} as const satisfies Record<keyof PriceNightOverride, readonly [string, string]>;

/** SQL of `calendar_price_overrides`: a rate plan's price of a room type per night. */
export const calendarPriceRepository = {
  /** Sets the named price fields of every (room type, rate plan) pair on every night. */
  async setPriceNights(
    tx: Executor,
    hotelId: string,
    plans: ReadonlyArray<{ roomTypeId: string; ratePlanId: string }>,
    nights: readonly string[],
    fields: Partial<PriceNightOverride>,
  ): Promise<void> {
    const set = named(PRICE_COLUMNS, fields, 5);
    if (set.columns.length === 0 || plans.length === 0 || nights.length === 0) return;
    await tx.query(
      `INSERT INTO calendar_price_overrides (hotel_id, room_type_id, rate_plan_id, night, ${set.columns.join(', ')})
       SELECT $1, p.room_type_id, p.rate_plan_id, n.night, ${set.params.join(', ')}
       FROM unnest($2::text[], $3::text[]) AS p(room_type_id, rate_plan_id)
       CROSS JOIN unnest($4::date[]) AS n(night)
       ON CONFLICT (hotel_id, room_type_id, rate_plan_id, night) DO UPDATE SET
         ${set.columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = EXCLUDED.updated_at`,
      [hotelId, plans.map((p) => p.roomTypeId), plans.map((p) => p.ratePlanId), nights, ...set.values],
    );
  },

  /** Deletes the rows of the range left with no price overridden: the plan decides those nights again. */
  async deleteCleared(tx: Executor, hotelId: string, from: string, to: string): Promise<void> {
    await tx.query(
      `DELETE FROM calendar_price_overrides WHERE hotel_id = $1 AND night BETWEEN $2 AND $3
         AND base IS NULL AND included_adults IS NULL AND extra_adult IS NULL AND child IS NULL`,
      [hotelId, from, to],
    );
  },
};
