// The identity document photo, shrunk in the browser so a 12-megapixel phone picture uploads
// quickly and always fits the service's image limit.

/** Largest decoded image sent; well under the service's 5 MiB limit, plenty to read a document. */
export const MAX_PHOTO_BYTES = 1_000_000;
const MAX_SIDE = 1600;

function decodedBytes(dataUrl) {
  return Math.floor(((dataUrl.length - dataUrl.indexOf(',') - 1) * 3) / 4);
}

/** A JPEG data URL of `file`, scaled to at most MAX_SIDE pixels and MAX_PHOTO_BYTES. */
export async function shrinkPhoto(file, maxBytes = MAX_PHOTO_BYTES) {
  const bitmap = await createImageBitmap(file);
  let scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  let quality = 0.85;
  const canvas = document.createElement('canvas');
  for (;;) {
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext('2d');
    // JPEG has no transparency: a white page behind a transparent PNG, not black.
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const dataUrl = canvas.toDataURL('image/jpeg', quality);
    if (decodedBytes(dataUrl) <= maxBytes || canvas.width <= 64) {
      bitmap.close();
      return dataUrl;
    }
    if (quality > 0.55) quality -= 0.15;
    else scale *= 0.75;
  }
}
