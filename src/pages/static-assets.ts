import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export interface StaticAsset {
  body: Buffer;
  contentType: string;
  etag: string;
}

/**
 * Reads every servable file under `root` once, at start: the page code is small, and serving it
 * from memory means no file-system path ever comes from a request (no traversal to guard).
 * Keys are URL paths relative to `root`, with `/` separators.
 */
export function loadStaticAssets(root: string): Map<string, StaticAsset> {
  const assets = new Map<string, StaticAsset>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const contentType = CONTENT_TYPES[extname(entry.name)];
        if (!contentType) continue;
        const body = readFileSync(path);
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
        assets.set(relative(root, path).split(sep).join('/'), { body, contentType, etag });
      }
    }
  };
  walk(root);
  return assets;
}

/** Whether an `If-None-Match` header names this ETag (weak or strong, or `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
