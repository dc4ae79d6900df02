import { type PlanPricing, type RateDef, WEEKDAYS } from '../catalog/rate-plan.model.ts';
import { pricingProblems } from '../catalog/validate/pricing-problems.ts';
import type { Transaction } from '../infra/db/database.ts';
import { announceRatePlanChange } from './plan-store.ts';
import { ratePlanRepository } from './rate-plan.repository.ts';
import type { RatePlanChange } from './rate-plan-notif.parse.ts';

/** A change that cannot be applied: the whole message changes nothing. */
export class RatePlanChangeError extends Error {
  override name = 'RatePlanChangeError';
  constructor(
    message: string,
    readonly kind: 'invalid' | 'unknown_plan' | 'unknown_room_type',
  ) {
    super(message);
  }
}

type Period = { from?: string | undefined; to?: string | undefined };

const before = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const after = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** What is left of `old` outside [from, to]: zero, one or two periods. */
function cut<T extends Period>(old: T, from: string, to: string): T[] {
  const start = old.from ?? '0000-01-01';
  const end = old.to ?? '9999-12-31';
  if (end < from || start > to) return [old];
  const left = start < from ? [{ ...old, to: before(from) }] : [];
  const right = end > to ? [{ ...old, from: after(to) }] : [];
  return [...left, ...right];
}

/**
 * What is left of `old` once `r` replaces it for its dates and weekdays: a rate of other weekdays
 * stays whole; one sharing some keeps, inside `r`'s period, only the weekdays `r` does not price.
 */
function cutRate(old: RateDef, r: RateDef): RateDef[] {
  if (old.roomTypeId !== r.roomTypeId) return [old];
  const oldDays = old.days ?? WEEKDAYS;
  const kept = oldDays.filter((d) => !(r.days ?? WEEKDAYS).includes(d));
  if (kept.length === oldDays.length) return [old];
  const outside = cut(old, r.from ?? '0000-01-01', r.to ?? '9999-12-31');
  const from = [old.from, r.from].filter((d) => d !== undefined).sort()[1] ?? old.from ?? r.from;
  const to = [old.to, r.to].filter((d) => d !== undefined).sort()[0];
  if (kept.length === 0 || (from !== undefined && to !== undefined && from > to)) return outside;
  const { from: _f, to: _t, ...rest } = old;
  return [
    ...outside,
    { ...rest, ...(from ? { from } : {}), ...(to ? { to } : {}), days: kept as RateDef['days'] & {} },
  ];
}

/**
 * Overlay (HotelData 2022-10 4.5): the message's dated rates, booking rules and supplement prices
 * replace the plan's for the dates they cover (by room type, or generic), the rest stays.
 */
export function overlay(
  plan: PlanPricing,
  changes: Pick<PlanPricing, 'rates' | 'bookingRules' | 'supplements'>,
): PlanPricing {
  let rates = plan.rates;
  for (const r of changes.rates) {
    rates = rates.flatMap((old) => cutRate(old, r));
  }
  let rules = plan.bookingRules ?? [];
  for (const r of changes.bookingRules ?? []) {
    rules = rules.flatMap((old) => (old.roomTypeId === r.roomTypeId ? cut(old, r.from, r.to) : [old]));
  }
  const supplements = (plan.supplements ?? []).map((s) => {
    const incoming = (changes.supplements ?? []).find((x) => x.id === s.id);
    if (!incoming) return s;
    let prices = s.prices;
    for (const p of incoming.prices)
      prices = prices.flatMap((old) => (old.roomTypeId === p.roomTypeId ? cut(old, p.from, p.to) : [old]));
    return { ...s, prices: [...prices, ...incoming.prices] };
  });
  for (const s of changes.supplements ?? []) {
    if (!supplements.some((x) => x.id === s.id))
      throw new RatePlanChangeError(
        `Supplement ${s.id}: an Overlay can only change a supplement the plan has`,
        'invalid',
      );
  }
  const byStart = (a: Period, b: Period) => (a.from ?? '').localeCompare(b.from ?? '');
  return {
    ...plan,
    rates: [...rates, ...changes.rates].sort(byStart),
    ...(rules.length + (changes.bookingRules?.length ?? 0) > 0
      ? { bookingRules: [...rules, ...(changes.bookingRules ?? [])].sort(byStart) }
      : {}),
    ...(supplements.length ? { supplements } : {}),
  };
}

/**
 * Applies a RatePlans message's changes to a hotel in the caller's transaction: a complete set
 * first removes every stored plan; `New` creates or replaces a plan, `Overlay` changes one by
 * date, `Remove` deletes one. Every plan written is checked as the catalogue checks its `pricing`;
 * the first fault throws, so the transaction (and with it the whole message) changes nothing.
 */
export async function applyRatePlanChanges(
  tx: Transaction,
  hotelId: string,
  roomTypeIds: ReadonlySet<string>,
  completeSet: boolean,
  changes: readonly RatePlanChange[],
): Promise<void> {
  if (completeSet) await ratePlanRepository.removeAll(tx, hotelId);
  for (const change of changes) {
    if (change.type === 'Remove') {
      await ratePlanRepository.remove(tx, hotelId, change.code);
      continue;
    }
    let pricing: PlanPricing;
    if (change.type === 'New') pricing = change.pricing;
    else {
      const stored = await ratePlanRepository.lock(tx, hotelId, change.code);
      if (!stored)
        throw new RatePlanChangeError(
          `RatePlan ${change.code}: no such rate plan to overlay`,
          'unknown_plan',
        );
      pricing = overlay(stored.pricing, change.overlay);
    }
    const problems = pricingProblems(pricing, roomTypeIds, `RatePlan ${change.code}`);
    if (problems.length > 0) {
      const unknownRoom = problems.find((p) => p.includes('unknown room type'));
      throw new RatePlanChangeError(
        unknownRoom ?? (problems[0] as string),
        unknownRoom ? 'unknown_room_type' : 'invalid',
      );
    }
    await ratePlanRepository.save(tx, hotelId, change.code, pricing);
  }
  await settleJoins(tx, hotelId, changes);
  await announceRatePlanChange(tx, hotelId);
}

/** What a derived plan takes from its master (HotelData 4.5, RatePlanJoin): offers and texts. */
const FROM_MASTER = ['stayRules', 'freeNights', 'familyOffer', 'names', 'descriptions'] as const;

const mealPlanOf = (p: PlanPricing) =>
  `${Boolean(p.meals?.breakfast)}/${Boolean(p.meals?.lunch)}/${Boolean(p.meals?.dinner)}`;

/**
 * Joined rate plans (docs/api.md §9.3) of every group a message's `New` plans name, as stored once
 * the message is applied: exactly one master; each derived plan of the master's charge type (per
 * person or per room) and of a meal plan no other plan of the group has, carrying the master's
 * offers, names and descriptions (again whenever the master is replaced). A derived plan whose
 * master is unknown refuses the message.
 */
async function settleJoins(tx: Transaction, hotelId: string, changes: readonly RatePlanChange[]) {
  const groups = new Set(
    changes.flatMap((c) => (c.type === 'New' && c.pricing.join ? [c.pricing.join.id] : [])),
  );
  if (groups.size === 0) return;
  const stored = await ratePlanRepository.forHotel(tx, hotelId);
  for (const id of groups) {
    const members = stored.filter((p) => p.pricing.join?.id === id);
    const masters = members.filter((p) => p.pricing.join?.master);
    const derived = members.filter((p) => !p.pricing.join?.master);
    if (masters.length > 1)
      throw new RatePlanChangeError(
        `RatePlanID ${id}: ${masters.map((m) => m.code).join(' and ')} are both its master (RatePlanQualifier="true"); a group has one`,
        'invalid',
      );
    const master = masters[0];
    if (!master)
      throw new RatePlanChangeError(
        `RatePlan ${derived[0]?.code}: its master (RatePlanID ${id} with RatePlanQualifier="true") is unknown; send the master first or in the same message`,
        'unknown_plan',
      );
    const meals = new Map([[mealPlanOf(master.pricing), master.code]]);
    for (const plan of derived) {
      if (plan.pricing.per !== master.pricing.per)
        throw new RatePlanChangeError(
          `RatePlan ${plan.code}: its charge type (per ${plan.pricing.per}) differs from its master ${master.code}'s (per ${master.pricing.per})`,
          'invalid',
        );
      const same = meals.get(mealPlanOf(plan.pricing));
      if (same)
        throw new RatePlanChangeError(
          `RatePlan ${plan.code}: its meal plan is that of ${same}; the plans of RatePlanID ${id} differ in meal plan`,
          'invalid',
        );
      meals.set(mealPlanOf(plan.pricing), plan.code);
      const own = Object.fromEntries(
        Object.entries(plan.pricing).filter(([k]) => !(FROM_MASTER as readonly string[]).includes(k)),
      ) as PlanPricing;
      const taken = Object.fromEntries(
        FROM_MASTER.flatMap((k) => (master.pricing[k] === undefined ? [] : [[k, master.pricing[k]]])),
      );
      const pricing: PlanPricing = { ...own, ...taken };
      if (JSON.stringify(pricing) !== JSON.stringify(plan.pricing))
        await ratePlanRepository.save(tx, hotelId, plan.code, pricing);
    }
  }
}
