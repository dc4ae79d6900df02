import type { Logger } from 'pino';
import { type ClaimWorker, startClaimWorker } from '../infra/outbox/claim-worker.ts';
import { balanceChargesRepository, type ClaimedBalance } from '../payments/balance-charges.repository.ts';
import { type BalanceContext, chargeBalance } from './commands/charge-balance.ts';

/** Balances charged at once by one process. */
const CONCURRENCY = 4;
/** A claim outlives a provider's slowest answer and its transaction; a dead process's claim ends after it. */
const LEASE_MS = 5 * 60_000;

/**
 * Charges deposit plans' balances when due (API.md 14.2) on the claim worker of `infra/outbox/`, as
 * webhooks, messages and iCal imports are handled: every process runs it; each due balance is
 * claimed by one of them (SKIP LOCKED and a lease, on the service's clock) and charged by
 * `chargeBalance`'s own transaction. Nothing notifies a balance coming due (it comes due by time):
 * the poll every BALANCE_POLL_INTERVAL_MS finds it, also after a restart.
 */
export function startBalanceWorker(ctx: BalanceContext, logger: Logger): ClaimWorker {
  return startClaimWorker<ClaimedBalance, true>({
    db: ctx.db,
    logger,
    name: 'balance charge',
    concurrency: CONCURRENCY,
    pollIntervalMs: ctx.config.balancePollIntervalMs,
    graceMs: 10_000,
    claim: (limit, claim) =>
      balanceChargesRepository.claimDue(ctx.db, ctx.clock.now(), limit, claim, LEASE_MS),
    async run(item) {
      const outcome = await chargeBalance(ctx, logger, item);
      if (outcome === 'paid' || outcome === 'failed')
        logger.info({ reservationId: item.reservationId, outcome }, 'balance charge');
      return true;
    },
    // Never called: a charge is not aborted (the provider's call has its own timeout), and a
    // killed process's claim ends with its lease.
    release: async () => {},
  });
}
