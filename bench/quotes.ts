import { stays } from './catalog.ts';
import { load } from './load.ts';

/**
 * Quotes made ahead (not measured) for the booking scenarios, one per booking to come: `count`
 * quotes over a spread of stays of `types` room types, sent by 20 connections to `urls` in turn.
 */
export async function makeQuotes(urls: string[], count: number, types: number): Promise<string[]> {
  const ids: string[] = [];
  const bodies = stays(997, types).map((s) => JSON.stringify(s));
  await load(urls, {
    method: 'POST',
    path: () => '/api/v1/booking/quote',
    body: (i) => bodies[i % bodies.length] as string,
    connections: 20,
    amount: count,
    onBody: (status, body) => {
      if (status === 201) ids.push((JSON.parse(body) as { id: string }).id);
    },
  });
  return ids;
}
