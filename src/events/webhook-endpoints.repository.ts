import type { Executor } from '../infra/db/database.ts';

export interface WebhookEndpoint {
  rowId: number;
  id: string;
  url: string;
  events: string[];
  hotelIds: string[] | null;
  description: string | null;
  createdBy: string;
  createdAt: Date;
}

interface EndpointRow {
  id: number;
  public_id: string;
  url: string;
  events: string[];
  hotel_ids: string[] | null;
  description: string | null;
  created_by: string;
  created_at: Date;
}

const COLUMNS = 'id, public_id, url, events, hotel_ids, description, created_by, created_at';

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  rowId: Number(r.id),
  id: r.public_id,
  url: r.url,
  events: r.events,
  hotelIds: r.hotel_ids,
  description: r.description,
  createdBy: r.created_by,
  createdAt: r.created_at,
});

export const webhookEndpointsRepository = {
  async insert(
    tx: Executor,
    e: Omit<WebhookEndpoint, 'rowId' | 'createdAt'> & { secretEncrypted: Buffer },
  ): Promise<WebhookEndpoint> {
    const { rows } = await tx.query<EndpointRow>(
      `INSERT INTO webhook_endpoints (public_id, url, events, hotel_ids, description, secret_encrypted, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [e.id, e.url, e.events, e.hotelIds, e.description, e.secretEncrypted, e.createdBy],
    );
    return toEndpoint(rows[0] as EndpointRow);
  },

  async all(db: Executor): Promise<WebhookEndpoint[]> {
    const { rows } = await db.query<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints ORDER BY id`);
    return rows.map(toEndpoint);
  },

  async byId(db: Executor, id: string): Promise<WebhookEndpoint | null> {
    const { rows } = await db.query<EndpointRow>(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE public_id = $1`,
      [id],
    );
    return rows[0] ? toEndpoint(rows[0]) : null;
  },

  /** Deletes the endpoint with its pending deliveries and attempts (ON DELETE CASCADE). */
  async delete(tx: Executor, rowId: number): Promise<void> {
    await tx.query('DELETE FROM webhook_endpoints WHERE id = $1', [rowId]);
  },
};
