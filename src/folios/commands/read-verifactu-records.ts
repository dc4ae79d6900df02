import type { Principal } from '../../operator-access/scopes.ts';
import { type VerifactuRecord, verifactuRecordsRepository } from '../verifactu-records.repository.ts';
import type { FolioContext } from './folio-context.ts';

/**
 * `GET /operator/hotels/{hotel}/verifactu-records` (API.md 13): the hotel's chain in order, with the
 * values each record hashed, so anyone can recompute it. The cursor is the last record's place.
 */
export async function readVerifactuRecords(
  ctx: FolioContext,
  _principal: Principal,
  q: { hotelId: string; afterSeq: number; limit: number },
): Promise<{ data: VerifactuRecord[]; nextSeq: number | null }> {
  const rows = await verifactuRecordsRepository.page(ctx.db, q.hotelId, q.afterSeq, q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return { data: page, nextSeq: rows.length > q.limit && last ? last.seq : null };
}
