import type { ImportRow, SealedUrl } from '../ical-imports.repository.ts';
import type { IcalContext } from './ical-context.ts';

/** The encryption context of an import's URL: its ciphertext reads back only as this row's. */
const urlContext = (id: string) => `ical_imports.url:${id}`;
/** Sets the URLs' keyed hashes apart from every other use of the deployment's HMAC key. */
const URL_HASH_DOMAIN = 'innkeep/ical-import-url/v1\u0000';

/**
 * A URL as stored (docs/api.md §9.1): encrypted under the data key and the row's id, its keyed hash
 * (the same URL written the same way, host case and default port aside, hashes the same), its host.
 */
export function sealUrl(
  ctx: Pick<IcalContext, 'encryptor' | 'operatorKeyHasher'>,
  id: string,
  url: string,
): SealedUrl {
  const parsed = new URL(url);
  return {
    ciphertext: ctx.encryptor.encrypt(parsed.href, urlContext(id)),
    hash: ctx.operatorKeyHasher(URL_HASH_DOMAIN + parsed.href),
    host: parsed.host,
  };
}

/** The URL to fetch: decrypted, or in clear for a row of before encryption not yet sealed. */
export function importUrl(ctx: Pick<IcalContext, 'encryptor'>, row: ImportRow): string {
  if (row.urlCiphertext) return ctx.encryptor.decrypt(row.urlCiphertext, urlContext(row.id)).toString('utf8');
  return row.legacyUrl ?? '';
}
