import type { Executor } from '../infra/db/database.ts';

/** The `verifactu_chain_heads` table: the last record of each issuer's chain. */
export const verifactuChainHeadsRepository = {
  /**
   * The head of the issuer's chain, locked until the transaction ends (created empty the first
   * time): two issuing transactions never chain to the same previous record.
   */
  async lock(tx: Executor, hotelId: string, taxId: string): Promise<{ lastHash: string; position: number }> {
    const { rows } = await tx.query<{ last_hash: string; position: number }>(
      `INSERT INTO verifactu_chain_heads (hotel_id, issuer_tax_id, last_hash, position) VALUES ($1, $2, '', 0)
       ON CONFLICT (hotel_id, issuer_tax_id) DO UPDATE SET last_hash = verifactu_chain_heads.last_hash
       RETURNING last_hash, position`,
      [hotelId, taxId],
    );
    const row = rows[0] as { last_hash: string; position: number };
    return { lastHash: row.last_hash, position: Number(row.position) };
  },

  async advance(tx: Executor, hotelId: string, taxId: string, hash: string, position: number): Promise<void> {
    await tx.query(
      `UPDATE verifactu_chain_heads SET last_hash = $3, position = $4 WHERE hotel_id = $1 AND issuer_tax_id = $2`,
      [hotelId, taxId, hash, position],
    );
  },
};
