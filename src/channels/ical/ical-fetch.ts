import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { networkFailure } from '../../infra/net/network-failure.ts';
import { OutboundAddressError, resolveOutboundTarget } from '../../infra/net/outbound-address.ts';

/** Limits of one fetch of an external calendar (docs/api.md §9.1). */
export const FETCH_TIMEOUT_MS = 10_000;
export const MAX_FEED_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 3;

export class FeedFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedFetchError';
  }
}

/**
 * GETs an external feed under the webhook address rules (`https` only and no loopback, private or
 * link-local address unless `allowPrivate`), the connection pinned to the checked address so a
 * second lookup cannot rebind it. Redirects (platforms move feeds) are followed up to 3 times,
 * each target checked the same way. The whole fetch has 10 s and the body at most 5 MB.
 */
export async function fetchFeed(
  url: string,
  allowPrivate: boolean,
  timeoutMs = FETCH_TIMEOUT_MS,
): Promise<string> {
  const signal = AbortSignal.timeout(timeoutMs);
  let current = url;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const target = await resolveOutboundTarget(current, { allowPrivate: allowPrivate });
      const answer = await get(target.url, target.address, target.family, signal);
      if (answer.redirect !== undefined) {
        current = new URL(answer.redirect, target.url).toString();
        continue;
      }
      return answer.body;
    }
    throw new FeedFetchError(`more than ${MAX_REDIRECTS} redirects`);
  } catch (error) {
    if (signal.aborted) throw new FeedFetchError(`timeout after ${timeoutMs} ms`);
    if (error instanceof OutboundAddressError) throw new FeedFetchError(`refused: the URL ${error.message}`);
    if (error instanceof FeedFetchError) throw error;
    throw new FeedFetchError(networkFailure(error));
  }
}

function get(
  url: URL,
  address: string,
  family: 4 | 6,
  signal: AbortSignal,
): Promise<{ body: string; redirect?: undefined } | { body?: undefined; redirect: string }> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: unknown[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      {
        lookup,
        signal,
        headers: { accept: 'text/calendar, */*;q=0.5', 'user-agent': 'Innkeep iCal import' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          return resolve({ redirect: response.headers.location });
        }
        if (status < 200 || status >= 300) {
          response.resume();
          return reject(new FeedFetchError(`HTTP ${status}`));
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > MAX_FEED_BYTES) {
          response.destroy();
          return reject(new FeedFetchError(`the feed is larger than ${MAX_FEED_BYTES} bytes`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_FEED_BYTES) {
            response.destroy();
            reject(new FeedFetchError(`the feed is larger than ${MAX_FEED_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}
