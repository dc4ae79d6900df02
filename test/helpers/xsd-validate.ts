import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Validates AlpineBits messages against the standard's own XML Schema (HotelData 2022-10, kept in
 * test/fixtures/alpinebits/ with its source and licence) with xmllint from Debian's libxml2-utils.
 * Tests skip (with the reason) where xmllint is missing, as the browser tests do without Chromium.
 */
const SCHEMA = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'alpinebits',
  'alpinebits-2022-10.xsd',
);
const XMLLINT = ['/usr/bin/xmllint', '/usr/local/bin/xmllint'].find((p) => existsSync(p)) ?? null;

/** `false` when the schema checks can run, else why they are skipped (node:test prints it). */
export const skipWithoutXmllint: string | false = XMLLINT
  ? false
  : 'no xmllint: AlpineBits schema checks skipped (install it with: apt-get install -y libxml2-utils)';

/** Is `xml` valid against the AlpineBits 2022-10 schema? `errors` holds xmllint's messages when not. */
export function validateAlpineBits(xml: string): Promise<{ valid: boolean; errors: string }> {
  if (!XMLLINT) return Promise.reject(new Error(skipWithoutXmllint as string));
  return new Promise((resolve, reject) => {
    // --nonet: the schema is local and nothing may be fetched; the message comes on standard input.
    const child = execFile(
      XMLLINT,
      ['--noout', '--nonet', '--schema', SCHEMA, '-'],
      { timeout: 30_000, maxBuffer: 4 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        if (error && typeof code !== 'number') return reject(error);
        // 0: valid; 3 and 4: invalid or not well-formed (xmllint's exit codes).
        resolve({ valid: !error, errors: stderr.trim() });
      },
    );
    child.stdin?.end(xml);
  });
}
