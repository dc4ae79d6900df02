import { icalImportsRepository as repo } from '../ical-imports.repository.ts';
import type { IcalContext } from './ical-context.ts';
import { sealUrl } from './import-url.ts';

/** Encrypts the URLs of rows stored before encryption (migration 065); answers how many. */
export async function sealLegacyUrls(
  ctx: Pick<IcalContext, 'db' | 'encryptor' | 'operatorKeyHasher'>,
): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await repo.unsealed(ctx.db, 100);
    if (rows.length === 0) return sealed;
    await ctx.db.transaction(async (tx) => {
      for (const row of rows) await repo.seal(tx, row.id, row.url, sealUrl(ctx, row.id, row.url));
    });
    sealed += rows.length;
  }
}
