import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The AlpineBits HotelData 2022-10 schema, kept with its source and licence in test/fixtures/alpinebits/. */
const SCHEMA = fileURLToPath(new URL('../fixtures/alpinebits/alpinebits-2022-10.xsd', import.meta.url));

/**
 * Validates an AlpineBits document against the standard's schema with xmllint (Debian's
 * libxml2-utils), the message on standard input and no network: `errors` holds xmllint's report.
 */
export function validateAlpineBits(xml: string): Promise<{ valid: boolean; errors: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'xmllint',
      ['--noout', '--nonet', '--schema', SCHEMA, '-'],
      { timeout: 30_000 },
      (error, _stdout, stderr) => {
        if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
        resolve({ valid: error === null, errors: stderr.trim() });
      },
    );
    child.stdin?.end(xml);
  });
}
