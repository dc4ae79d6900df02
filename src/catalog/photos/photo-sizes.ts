import type { Language } from '../../infra/i18n/languages.ts';
import { nameIn } from '../localized-name.ts';
import type { Photo, PhotoFile } from '../selling.schema.ts';

/**
 * The sizes a catalogue photo file is served in (API.md 9.1), pure: widths for phones (480, 960 at
 * 2×) and desktops (1440, 1920), never wider than the file itself (a small photo is served at its
 * own width, never enlarged), in JPEG and WebP, each at `/media/<hash>-<width>.<ext>`.
 */

export const PHOTO_WIDTHS = [480, 960, 1440, 1920] as const;
export const PHOTO_FORMATS = { jpg: 'image/jpeg', webp: 'image/webp' } as const;
export type PhotoFormat = keyof typeof PHOTO_FORMATS;
/** The width of `src` (for a browser that reads no `srcset`): a desktop's column. */
const SRC_WIDTH = 960;
const MAX_WIDTH = 1920;

/** The widths a file of `width` pixels is served in, smallest first: none wider than the file. */
export function servedWidths(width: number): number[] {
  const widths: number[] = PHOTO_WIDTHS.filter((w) => w < width);
  if (width <= MAX_WIDTH) widths.push(width);
  return widths;
}

/** The height of the file scaled to `width` (rounded as the resizer rounds). */
export function heightAt(file: PhotoFile, width: number): number {
  return Math.max(1, Math.round((file.height * width) / file.width));
}

export const mediaUrl = (hash: string, width: number, format: PhotoFormat) =>
  `/media/${hash}-${width}.${format}`;

/** A `/media/` name read back: the photo's hash, the width and the format; null when not one. */
export function parseMediaName(name: string): { hash: string; width: number; format: PhotoFormat } | null {
  const match = /^([0-9a-f]{20})-([1-9][0-9]{0,4})\.(jpg|webp)$/.exec(name);
  if (!match) return null;
  return { hash: match[1] as string, width: Number(match[2]), format: match[3] as PhotoFormat };
}

export type PhotoView = {
  src: string;
  srcset: string;
  width: number | null;
  height: number | null;
  alt: string;
  webpSrcset?: string;
};

function srcset(file: PhotoFile, format: PhotoFormat): string {
  return servedWidths(file.width)
    .map((w) => `${mediaUrl(file.hash, w, format)} ${w}w`)
    .join(', ');
}

/**
 * A photo as the API answers it: `src` (JPEG, the largest size up to 960 pixels wide) with its
 * `width` and `height`, `srcset` in JPEG and `webpSrcset` in WebP; an `url` photo is passed through
 * (`srcset` empty, `width` and `height` null: unknown). `alt` in `lang`, else `fallbackAlt`. Null for an unchecked file.
 */
export function photoView(photo: Photo, lang: Language | null, fallbackAlt: string): PhotoView | null {
  const alt = photo.alt ? nameIn(photo.alt, lang ?? 'en') : fallbackAlt;
  if (photo.url) return { src: photo.url, srcset: '', width: null, height: null, alt };
  const file = photo.file;
  if (!file || file.hash === '') return null;
  const widths = servedWidths(file.width);
  const srcWidth = widths.filter((w) => w <= SRC_WIDTH).pop() ?? (widths[0] as number);
  return {
    src: mediaUrl(file.hash, srcWidth, 'jpg'),
    srcset: srcset(file, 'jpg'),
    webpSrcset: srcset(file, 'webp'),
    width: srcWidth,
    height: heightAt(file, srcWidth),
    alt,
  };
}
