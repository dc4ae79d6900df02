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

/** A versioned URL's answers never change: browsers and proxies keep them a year, unasked. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Unversioned (or stale-versioned) asset URLs and the HTML shells: revalidate on every use. */
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

export interface StaticAsset {
  body: Buffer;
  contentType: string;
  etag: string;
}

export interface StaticAssets {
  /**
   * A hash of every asset's path and content, computed at start: it changes when any file changes.
   * It is one segment for all of them because ES modules import each other by relative names
   * (`./dom.js`): under `/assets/v-<version>/` those names resolve to the same version, so every
   * module gets a versioned URL with no build step and no rewriting of imports.
   */
  version: string;
  files: Map<string, StaticAsset>;
}

function sha256(data: Buffer | string): Buffer {
  return createHash('sha256').update(data).digest();
}

/** A strong ETag from content. */
export function contentEtag(body: Buffer | string): string {
  return `"${sha256(body).toString('base64url').slice(0, 22)}"`;
}

/**
 * Reads every servable file under `root` once, at start: the page code is small, and serving it
 * from memory means no file-system path ever comes from a request (no traversal to guard).
 * Keys are URL paths relative to `root`, with `/` separators. `mounts` adds folders from elsewhere
 * (a browser package's ES modules in node_modules) under a key prefix: `{ 'vendor/x': dir }` serves
 * `dir/index.js` as `vendor/x/index.js`, so pages import it by a relative name like their own.
 */
export function loadStaticAssets(root: string, mounts: Record<string, string> = {}): StaticAssets {
  const files = new Map<string, StaticAsset>();
  const walk = (dir: string, base = root, prefix = '') => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, base, prefix);
      else {
        const contentType = CONTENT_TYPES[extname(entry.name)];
        if (!contentType) continue;
        const body = readFileSync(path);
        const key = prefix + relative(base, path).split(sep).join('/');
        files.set(key, { body, contentType, etag: contentEtag(body) });
      }
    }
  };
  walk(root);
  for (const [at, dir] of Object.entries(mounts)) walk(dir, dir, `${at}/`);
  const all = createHash('sha256');
  for (const key of [...files.keys()].sort()) all.update(`${key}\u0000${files.get(key)?.etag}\n`);
  return { version: all.digest('hex').slice(0, 12), files };
}

const VERSION_SEGMENT = /^v-([0-9a-f]{12})\/(.*)$/;

/**
 * Where an asset request points: the file's key, and whether its URL names the version being
 * served (then the answer may be cached as immutable). A URL of another version — a page loaded
 * before a deploy — still gets today's file, but only with revalidation, so no cache keeps a
 * mismatch for a year.
 */
export function resolveAsset(assets: StaticAssets, urlPath: string): { key: string; current: boolean } {
  const versioned = VERSION_SEGMENT.exec(urlPath);
  if (!versioned) return { key: urlPath, current: false };
  return { key: versioned[2] ?? '', current: versioned[1] === assets.version };
}

/** The URL of an asset under the current version, e.g. `/assets/v-0123456789ab/shared/style.css`. */
export function assetUrl(assets: StaticAssets, key: string): string {
  return `/assets/v-${assets.version}/${key}`;
}

/** Whether an `If-None-Match` header names this ETag (weak or strong, or `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
