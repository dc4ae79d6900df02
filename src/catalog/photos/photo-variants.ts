import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Hotel } from '../catalog.schema.ts';
import type { PhotoFile } from '../selling.schema.ts';
import { photoHash } from './photo-files.ts';
import { heightAt, type PhotoFormat, servedWidths } from './photo-sizes.ts';

/**
 * The served sizes of catalogue photos (API.md 9.1), each made once: on its first request, by
 * sharp (libvips), then kept on disk in `DATA_DIR/media/` under its content hash and width, so no
 * request after the first (and no process after, sharing DATA_DIR) resizes it again. A request for
 * a size being made waits for that one making.
 */

export type Variant = { bytes: Buffer; format: PhotoFormat };

/** The photo file of `hash` in the catalogue, if any hotel or room type shows it. */
export function findPhotoFile(hotels: Hotel[], hash: string): PhotoFile | undefined {
  for (const hotel of hotels) {
    for (const photo of hotel.photos ?? []) if (photo.file?.hash === hash) return photo.file;
    for (const roomType of hotel.roomTypes)
      for (const photo of roomType.photos ?? []) if (photo.file?.hash === hash) return photo.file;
  }
  return undefined;
}

async function make(file: PhotoFile, width: number, format: PhotoFormat): Promise<Buffer | null> {
  // Gone since the catalogue was loaded (or loaded by a process with another folder): nothing to serve.
  const original = await readFile(file.path).catch(() => null);
  if (!original) return null;
  // The file changed since the catalogue was loaded: its old hash names nothing any more.
  if (photoHash(original) !== file.hash) return null;
  const resized = sharp(original)
    .rotate()
    .resize({ width, height: heightAt(file, width), fit: 'fill', withoutEnlargement: true });
  return format === 'jpg'
    ? resized.jpeg({ quality: 78, mozjpeg: true, progressive: true }).toBuffer()
    : resized.webp({ quality: 74 }).toBuffer();
}

export class PhotoVariants {
  private readonly making = new Map<string, Promise<Buffer | null>>();
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'media');
  }

  /** The served bytes of `file` at `width` in `format`; null when that size is not one it is served in. */
  async get(file: PhotoFile, width: number, format: PhotoFormat): Promise<Buffer | null> {
    if (!servedWidths(file.width).includes(width)) return null;
    const name = `${file.hash}-${width}.${format}`;
    const cached = path.join(this.dir, name);
    try {
      return await readFile(cached);
    } catch {
      // Not made yet (or DATA_DIR emptied): made below, once.
    }
    let running = this.making.get(name);
    if (!running) {
      running = this.makeAndKeep(file, width, format, cached).finally(() => this.making.delete(name));
      this.making.set(name, running);
    }
    return running;
  }

  private async makeAndKeep(file: PhotoFile, width: number, format: PhotoFormat, cached: string) {
    const bytes = await make(file, width, format);
    if (!bytes) return null;
    await mkdir(this.dir, { recursive: true });
    // Written aside then renamed: another process reading DATA_DIR never sees half a file.
    const partial = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
    await writeFile(partial, bytes);
    await rename(partial, cached);
    return bytes;
  }
}
