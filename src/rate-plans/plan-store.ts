import type { Database, Transaction } from '../infra/db/database.ts';
import { ratePlanRepository, type StoredRatePlan } from './rate-plan.repository.ts';

export const RATE_PLANS_CHANNEL = 'innkeep_rate_plans';

const stores = new WeakMap<object, PlanStore>();

/**
 * Each process's copy of the hotels' stored rate plans (docs/api.md §9.3), which search, quote and
 * booking price from (a plan only changes by the hotel's hand: a RatePlans message).
 * A hotel's plans are read on first use and dropped when they change: at once after this process's
 * own commit, and on PostgreSQL when another process's commit is heard (`pg_notify` at commit), so
 * every process sees a change within about a second. While the listening connection is down the
 * copy is not trusted and every read goes to the database, as does a `fresh` read.
 */
export class PlanStore {
  private readonly plans = new Map<string, readonly StoredRatePlan[]>();
  private readonly loading = new Map<string, Promise<readonly StoredRatePlan[]>>();
  private trusted: boolean;
  /** Moved by every change heard: a read begun before it is not kept. */
  private generation = 0;

  static of(db: Database): PlanStore {
    let store = stores.get(db.identity);
    if (!store) {
      store = new PlanStore(db);
      stores.set(db.identity, store);
    }
    return store;
  }

  private constructor(private readonly db: Database) {
    this.trusted = db.kind === 'embedded' || !db.listen;
    if (db.kind === 'postgres' && db.listen) {
      db.listen(RATE_PLANS_CHANNEL, {
        message: (hotelId) => this.changed(hotelId),
        connected: () => {
          this.generation++;
          this.plans.clear();
          this.trusted = true;
        },
        disconnected: () => {
          this.trusted = false;
        },
      });
    }
  }

  /** The hotel's stored plans: from memory when it can be trusted, else (or `fresh`) from the database. */
  async forHotel(hotelId: string, fresh = false): Promise<readonly StoredRatePlan[]> {
    if (fresh || !this.trusted) return ratePlanRepository.forHotel(this.db, hotelId);
    const known = this.plans.get(hotelId);
    if (known) return known;
    const running = this.loading.get(hotelId);
    if (running) return running;
    const generation = this.generation;
    const promise = ratePlanRepository
      .forHotel(this.db, hotelId)
      .then((plans) => {
        if (generation === this.generation) this.plans.set(hotelId, plans);
        return plans;
      })
      .finally(() => this.loading.delete(hotelId));
    this.loading.set(hotelId, promise);
    return promise;
  }

  /** The hotel's plans changed (committed): read them again on next use. */
  changed(hotelId: string): void {
    this.generation++;
    this.plans.delete(hotelId);
  }
}

/** Inside the transaction that changes a hotel's plans: every process forgets its copy once it commits. */
export async function announceRatePlanChange(tx: Transaction, hotelId: string): Promise<void> {
  const store = PlanStore.of(tx.database);
  if (tx.database.kind === 'postgres') tx.notify(RATE_PLANS_CHANNEL, hotelId);
  tx.onEnd(async (committed) => {
    if (committed) store.changed(hotelId);
  });
}
