/**
 * The large files of the reference page (Swagger UI's 1.5 MB bundle, its preset and style sheet),
 * served under names that carry a hash of their content (`/docs/assets/swagger-ui-bundle.3f9c….js`)
 * so browsers may keep them for a year without asking again, and compressed once per process, on
 * the first request for each (brotli and gzip), instead of on every request (about 90 ms of CPU
 * for the bundle each time). A new Swagger UI version is a new name.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { projectFile } from '../project-files.ts';

export const DOCS_ASSETS_PREFIX = '/docs/assets/';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
/** The files of @fastify/swagger-ui's page this serves under hashed names (the rest are small). */
const FILES = ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css'];

export interface DocsAsset {
  /** `swagger-ui-bundle.js`: the name the plugin's page uses. */
  file: string;
  /** `swagger-ui-bundle.<hash>.js`: the name served here. */
  hashedName: string;
  contentType: string;
  etag: string;
  identity: Buffer;
  /** Compressed on first use, then kept. */
  encoded(encoding: 'br' | 'gzip'): Buffer;
}

let assets: Map<string, DocsAsset> | undefined;

/** The assets by hashed name, read and hashed once per process (compressed when first asked for). */
export function docsAssets(): Map<string, DocsAsset> {
  if (assets) return assets;
  // The files @fastify/swagger-ui serves itself, found as every file the service reads is.
  const staticDir = projectFile('node_modules/@fastify/swagger-ui/static');
  assets = new Map();
  for (const file of FILES) {
    const identity = readFileSync(path.join(staticDir, file));
    const hash = createHash('sha256').update(identity).digest('hex').slice(0, 16);
    const ext = path.extname(file);
    const cache = new Map<string, Buffer>();
    const asset: DocsAsset = {
      file,
      hashedName: `${path.basename(file, ext)}.${hash}${ext}`,
      contentType: TYPES[ext] ?? 'application/octet-stream',
      etag: `"${hash}"`,
      identity,
      encoded(encoding) {
        let body = cache.get(encoding);
        if (!body) {
          body =
            encoding === 'br'
              ? brotliCompressSync(identity, {
                  params: {
                    [constants.BROTLI_PARAM_QUALITY]: 9,
                    [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
                  },
                })
              : gzipSync(identity, { level: 9 });
          cache.set(encoding, body);
        }
        return body;
      },
    };
    assets.set(asset.hashedName, asset);
  }
  return assets;
}

/** The best encoding `accept-encoding` allows: brotli, then gzip, else none (q=0 refuses one). */
export function preferredEncoding(header: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const wants = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (wants('br')) return 'br';
  if (wants('gzip')) return 'gzip';
  return null;
}

/** The page with its links to the large files replaced by their hashed names. */
export function withHashedAssets(html: string): string {
  let page = html;
  for (const asset of docsAssets().values()) {
    page = page.replace(
      new RegExp(`(["'])[^"']*/static/${asset.file.replaceAll('.', '\\.')}\\1`, 'g'),
      `$1${DOCS_ASSETS_PREFIX}${asset.hashedName}$1`,
    );
  }
  return page;
}
