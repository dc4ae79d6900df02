import type { Database } from '../../infra/db/database.ts';
import { invalid } from '../../infra/http/problems.ts';
import { typesOfPattern } from '../event-types.ts';
import { feedRepository, type StoredEvent } from '../feed.repository.ts';

export const MAX_FEED_LIMIT = 500;
export const DEFAULT_FEED_LIMIT = 100;

/**
 * A page of the event feed (API.md 8.1) for a key seeing `hotelIds` (null = every hotel):
 * events after `after` (an event id from an earlier page), of `types` (comma-separated types or
 * `prefix.*`). `nextCursor` is the last event's id, or `after` again when nothing new was published.
 */
export async function readFeed(
  db: Database,
  hotelIds: readonly string[] | null,
  query: { after?: string | undefined; types?: string | undefined; limit?: number | undefined },
): Promise<{ data: StoredEvent[]; nextCursor: string | null }> {
  const limit = query.limit ?? DEFAULT_FEED_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FEED_LIMIT) {
    throw invalid('/query/limit', `must be a whole number from 1 to ${MAX_FEED_LIMIT}`);
  }
  let types: string[] | null = null;
  if (query.types !== undefined) {
    types = [];
    for (const pattern of query.types.split(',').map((t) => t.trim())) {
      const expanded = typesOfPattern(pattern);
      if (!expanded)
        throw invalid('/query/types', `"${pattern}" is not an event type or a \`prefix.*\` of one`);
      types.push(...expanded);
    }
  }
  let after = null;
  if (query.after !== undefined) {
    const found = /^evt_[0-9a-z]{1,60}$/.test(query.after)
      ? await feedRepository.positionOf(db, query.after)
      : null;
    if (!found || (hotelIds !== null && !hotelIds.includes(found.hotelId))) {
      throw invalid(
        '/query/after',
        'is not the id of an event this key can read (unknown, or purged after EVENT_RETENTION_DAYS)',
      );
    }
    after = found.at;
  }
  const data = await feedRepository.page(db, { after, hotelIds, types, limit });
  return { data, nextCursor: data.at(-1)?.id ?? query.after ?? null };
}
