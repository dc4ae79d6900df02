import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Hotel } from '../catalog.schema.ts';
import type { Photo } from '../selling.schema.ts';

/**
 * Catalogue photo files (API.md 9.1), checked once when the catalogue is loaded: each is read,
 * hashed (its served URLs carry the hash, so they may be cached for ever) and measured by decoding
 * its header. A file that is missing or is not an image refuses the catalogue, naming the file.
 */

/** Image formats a photo file may be in (what the service can read to make its sizes). */
const READABLE = new Set(['jpeg', 'png', 'webp', 'avif', 'heif', 'gif', 'tiff']);

/** The content hash a photo's URLs carry: 20 hex digits of its SHA-256 (and of how sizes are made). */
export function photoHash(bytes: Buffer): string {
  return createHash('sha256').update(PIPELINE_VERSION).update(bytes).digest('hex').slice(0, 20);
}

/** Bumped when the sizes are made differently, so cached copies under the old hashes are never served. */
const PIPELINE_VERSION = 'v1';

/** The file's size as shown: EXIF orientation applied (a portrait phone photo stays portrait). */
async function measure(bytes: Buffer): Promise<{ width: number; height: number } | string> {
  try {
    const meta = await sharp(bytes).metadata();
    if (!meta.format || !READABLE.has(meta.format)) return `is not an image in a readable format`;
    const oriented = meta.autoOrient ?? meta;
    if (!oriented.width || !oriented.height) return 'is not an image with a size';
    return { width: oriented.width, height: oriented.height };
  } catch {
    return 'is not an image (it cannot be decoded)';
  }
}

async function check(photo: Photo, baseDir: string, at: string): Promise<string | null> {
  const file = photo.file;
  if (file?.hash !== '') return null;
  const full = path.resolve(baseDir, file.path);
  let bytes: Buffer;
  try {
    bytes = await readFile(full);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})`;
    return `${at}: photo file ${file.path} (${full}) ${why}`;
  }
  const size = await measure(bytes);
  if (typeof size === 'string') return `${at}: photo file ${file.path} (${full}) ${size}`;
  photo.file = { path: full, hash: photoHash(bytes), ...size };
  return null;
}

/**
 * Checks and measures every photo file of `hotels` in place, relative to `baseDir` (the catalogue
 * file's folder). Returns one `path: message` per bad file; already checked photos are skipped.
 */
export async function checkPhotoFiles(hotels: Hotel[], baseDir: string): Promise<string[]> {
  const jobs: Array<Promise<string | null>> = [];
  hotels.forEach((hotel, h) => {
    for (const [i, photo] of (hotel.photos ?? []).entries())
      jobs.push(check(photo, baseDir, `hotels/${h}/photos/${i}/file`));
    hotel.roomTypes.forEach((roomType, r) => {
      for (const [i, photo] of (roomType.photos ?? []).entries())
        jobs.push(check(photo, baseDir, `hotels/${h}/roomTypes/${r}/photos/${i}/file`));
    });
  });
  const problems = await Promise.all(jobs);
  return problems.filter((p): p is string => p !== null);
}
