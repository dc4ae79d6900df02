import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import jsQRModule from 'jsqr';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * Reads a PDF back as a person would: its text, page by page (pdf.js's text layer, lines joined in
 * reading order), and the QR code found on a page rendered to pixels (pdf.js on @napi-rs/canvas,
 * decoded by jsQR). Nothing here knows how the PDF was made.
 */
// jsqr is CommonJS typed as an ES default export: under NodeNext the default is the module object.
const jsQR = (jsQRModule as unknown as { default: typeof jsQRModule.default }).default;

// pdf.js's own metrics of the 14 standard fonts (Helvetica …), so it draws them as a viewer would.
const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

export interface ReadPdf {
  pages: number;
  /** Each page's text, one line of the page per line. */
  text: string[];
  /** The first page's page size in points. */
  size: { width: number; height: number };
  /** The QR code's text on the given page (1-based), or null. */
  qr(page: number): Promise<string | null>;
}

export async function readPdf(bytes: Buffer | Uint8Array): Promise<ReadPdf> {
  const data = new Uint8Array(bytes);
  const pdf = await getDocument({
    data,
    useSystemFonts: false,
    isEvalSupported: false,
    standardFontDataUrl: STANDARD_FONTS,
  }).promise;
  const text: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    // Items grouped into lines by their baseline, each line read left to right.
    const lines = new Map<number, Array<{ x: number; s: string }>>();
    for (const item of content.items) {
      if (!('str' in item) || item.str === '') continue;
      const y = Math.round(item.transform[5] as number);
      const key = [...lines.keys()].find((k) => Math.abs(k - y) <= 2) ?? y;
      lines.set(key, [...(lines.get(key) ?? []), { x: item.transform[4] as number, s: item.str }]);
    }
    text.push(
      [...lines.entries()]
        .sort(([a], [b]) => b - a)
        .map(([, items]) =>
          items
            .sort((a, b) => a.x - b.x)
            .map((i) => i.s)
            .join(' '),
        )
        .join('\n'),
    );
  }
  const first = await pdf.getPage(1);
  const { width, height } = first.getViewport({ scale: 1 });
  return {
    pages: pdf.numPages,
    text,
    size: { width, height },
    async qr(n: number) {
      const page = await pdf.getPage(n);
      const viewport = page.getViewport({ scale: 3 });
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const context = canvas.getContext('2d');
      context.fillStyle = 'white';
      context.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      const found = jsQR(new Uint8ClampedArray(image.data.buffer), image.width, image.height);
      // jsQR may read a QR code of nothing from text that resembles finder patterns: that is no code.
      return found?.data ? found.data : null;
    },
  };
}
