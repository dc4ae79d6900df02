import type { Executor } from '../../infra/db/database.ts';

/** SQL of the iCal feeds (`ical_feeds`, the export, docs/api.md §9.1): their tokens kept hashed. */

export interface FeedRow {
  id: string;
  hotelId: string;
  roomTypeId: string;
  createdAt: Date;
}

const FEED_COLUMNS = 'id, hotel_id, room_type_id, created_at';

export type FeedRecord = { id: string; hotel_id: string; room_type_id: string; created_at: Date };

/** A feed row as the commands see it (an import row starts alike). */
export const feedOf = (r: FeedRecord): FeedRow => ({
  id: r.id,
  hotelId: r.hotel_id,
  roomTypeId: r.room_type_id,
  createdAt: new Date(r.created_at),
});

export const icalFeedsRepository = {
  async insertFeed(
    db: Executor,
    row: { id: string; hotelId: string; roomTypeId: string; tokenHash: Buffer },
  ) {
    const { rows } = await db.query<FeedRecord>(
      `INSERT INTO ical_feeds (id, hotel_id, room_type_id, token_hash) VALUES ($1, $2, $3, $4)
       RETURNING ${FEED_COLUMNS}`,
      [row.id, row.hotelId, row.roomTypeId, row.tokenHash],
    );
    return feedOf(rows[0] as FeedRecord);
  },

  async feedByTokenHash(db: Executor, tokenHash: Buffer): Promise<FeedRow | null> {
    const { rows } = await db.query<FeedRecord>(
      `SELECT ${FEED_COLUMNS} FROM ical_feeds WHERE token_hash = $1`,
      [tokenHash],
    );
    return rows[0] ? feedOf(rows[0]) : null;
  },

  async feedsOf(db: Executor, hotelId: string): Promise<FeedRow[]> {
    const { rows } = await db.query<FeedRecord>(
      `SELECT ${FEED_COLUMNS} FROM ical_feeds WHERE hotel_id = $1 ORDER BY created_at, id`,
      [hotelId],
    );
    return rows.map(feedOf);
  },

  async feedById(db: Executor, id: string): Promise<FeedRow | null> {
    const { rows } = await db.query<FeedRecord>(`SELECT ${FEED_COLUMNS} FROM ical_feeds WHERE id = $1`, [id]);
    return rows[0] ? feedOf(rows[0]) : null;
  },

  async deleteFeed(db: Executor, id: string): Promise<void> {
    await db.query('DELETE FROM ical_feeds WHERE id = $1', [id]);
  },
};
