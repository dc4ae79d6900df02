import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { minorDigits } from '../../infra/currency.ts';
import type { Language } from '../../infra/i18n/languages.ts';
import type { Invoice } from '../commands/invoice-view.ts';
import { INVOICE_TEXTS, type InvoiceTexts } from './invoice-texts.ts';

/** What an invoice's PDF shows besides the invoice: the number and date of the invoice it corrects. */
export interface PdfExtras {
  language: Language;
  corrected?: { number: string; issueDate: string } | null;
}

/** AEAT's legend beside the QR code of a VERI*FACTU invoice (Orden HAC/1177/2024, art. 21). */
export const VERIFACTU_LEGEND = 'Factura verificable en la sede electrónica de la AEAT';

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const RIGHT = A4.width - MARGIN;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
// 35 mm: AEAT asks for a QR code between 30 and 40 mm wide.
const QR_SIZE = (35 / 25.4) * 72;

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (all, key: string) => (key in values ? String(values[key]) : all));

/**
 * Locale formatting: money, percentages and dates as the invoice's language writes them. The
 * standard PDF fonts speak WinAnsi, which has U+00A0 but not the narrow no-break space some
 * locales group digits with: that one prints as a no-break space.
 */
function formatters(t: InvoiceTexts, currency: string) {
  const digits = minorDigits(currency);
  const money = new Intl.NumberFormat(t.locale, { style: 'currency', currency });
  const percent = new Intl.NumberFormat(t.locale, { style: 'percent', maximumFractionDigits: 2 });
  const date = new Intl.DateTimeFormat(t.locale, { dateStyle: 'long', timeZone: 'UTC' });
  const winAnsi = (s: string) => s.replace(/\u202f/g, '\u00a0');
  return {
    money: (minor: number) => winAnsi(money.format(minor / 10 ** digits)),
    rate: (rate: number | null) => (rate === null ? t.outsideVat : winAnsi(percent.format(rate / 100))),
    date: (d: string) => winAnsi(date.format(new Date(`${d}T00:00:00Z`))),
  };
}

/**
 * An invoice or credit note as an A4 PDF (API.md 13), in `language`: issuer and recipient, number
 * and dates, lines, the VAT breakdown, the total, the invoice a credit note corrects and, under
 * VERI*FACTU, the QR code of `qrUrl` with AEAT's legend. Drawn from the immutable invoice, so the
 * same invoice always renders the same content.
 */
export async function renderInvoicePdf(invoice: Invoice, extras: PdfExtras): Promise<Buffer> {
  const { row, lines, qrUrl } = invoice;
  const t = INVOICE_TEXTS[extras.language];
  const f = formatters(t, row.currency);
  const title = t.title[row.type];
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    lang: extras.language,
    info: { Title: `${title} ${row.number}`, Author: row.issuer.name, Subject: row.number },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  // Heading: the kind of document, its number and dates.
  doc.font(BOLD).fontSize(20).text(title, MARGIN, MARGIN);
  doc.font(FONT).fontSize(10).moveDown(0.5);
  const facts: Array<[string, string]> = [
    [t.number, row.number],
    [t.issueDate, f.date(row.issueDate)],
    [t.reservation, row.reservationCode],
  ];
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font(BOLD).text(label, MARGIN, y, { width: 110 });
    doc.font(FONT).text(value, MARGIN + 115, y);
  }
  if (extras.corrected) {
    doc
      .moveDown(0.3)
      .text(
        fill(t.corrects, { number: extras.corrected.number, date: f.date(extras.corrected.issueDate) }),
        MARGIN,
      );
  }
  if (row.reason) doc.text(`${t.reason}: ${row.reason}`, MARGIN);

  // Issuer and recipient side by side.
  doc.moveDown(1.2);
  const partiesTop = doc.y;
  const column = (A4.width - 2 * MARGIN - 20) / 2;
  const party = (
    label: string,
    p: {
      name: string;
      taxId?: string | undefined;
      address?: string | undefined;
      country?: string | undefined;
    },
    x: number,
  ) => {
    doc
      .font(BOLD)
      .fontSize(9)
      .fillColor('#555555')
      .text(label.toUpperCase(), x, partiesTop, { width: column });
    doc
      .fillColor('black')
      .font(BOLD)
      .fontSize(11)
      .text(p.name, x, doc.y + 2, { width: column });
    doc.font(FONT).fontSize(10);
    if (p.taxId) doc.text(`${t.taxId}: ${p.taxId}`, x, doc.y, { width: column });
    if (p.address) doc.text(p.address, x, doc.y, { width: column });
    if (p.country) doc.text(p.country, x, doc.y, { width: column });
    return doc.y;
  };
  const issuerBottom = party(t.issuer, row.issuer, MARGIN);
  const recipientBottom = party(t.recipient, row.recipient, MARGIN + column + 20);
  doc.y = Math.max(issuerBottom, recipientBottom) + 24;

  // The lines.
  const cols = [
    { key: 'description', x: MARGIN, width: 215, align: 'left' as const },
    { key: 'quantity', x: MARGIN + 220, width: 35, align: 'right' as const },
    { key: 'unit', x: MARGIN + 260, width: 80, align: 'right' as const },
    { key: 'vat', x: MARGIN + 345, width: 60, align: 'right' as const },
    { key: 'amount', x: MARGIN + 410, width: RIGHT - MARGIN - 410, align: 'right' as const },
  ];
  const bottomLimit = A4.height - MARGIN - 40;
  const row5 = (cells: string[], font: string) => {
    doc.font(font).fontSize(10);
    const heights = cells.map((text, i) => doc.heightOfString(text, { width: cols[i]?.width ?? 0 }));
    const height = Math.max(...heights);
    if (doc.y + height > bottomLimit) doc.addPage();
    const y = doc.y;
    cells.forEach((text, i) => {
      const c = cols[i];
      if (c) doc.text(text, c.x, y, { width: c.width, align: c.align });
    });
    doc.y = y + height + 4;
  };
  const rule = () => {
    doc.moveTo(MARGIN, doc.y).lineTo(RIGHT, doc.y).lineWidth(0.5).strokeColor('#999999').stroke();
    doc.y += 4;
  };
  row5([t.description, t.quantity, t.unitPrice, t.vat, t.amount], BOLD);
  rule();
  for (const line of lines) {
    row5(
      [
        line.description,
        String(line.quantity),
        f.money(line.unitAmount),
        f.rate(line.vatRate),
        f.money(line.amount),
      ],
      FONT,
    );
  }
  rule();

  // The VAT breakdown and the total, right-aligned under the amounts.
  const labelX = MARGIN + 220;
  const labelWidth = 180;
  const valueX = MARGIN + 405;
  const valueWidth = RIGHT - valueX;
  const pair = (label: string, value: string, font = FONT, size = 10) => {
    doc.font(font).fontSize(size);
    if (doc.y + 20 > bottomLimit) doc.addPage();
    const y = doc.y;
    doc.text(label, labelX, y, { width: labelWidth, align: 'right' });
    doc.text(value, valueX, y, { width: valueWidth, align: 'right' });
    doc.y = y + size + 6;
  };
  if (row.taxes.length > 0) {
    doc.moveDown(0.5);
    doc.font(BOLD).fontSize(10).text(t.vatBreakdown, MARGIN, doc.y);
    doc.moveDown(0.3);
    const heading = doc.y;
    const taxCols = [MARGIN, MARGIN + 120, MARGIN + 260];
    doc.font(BOLD).fontSize(9);
    doc.text(t.vatRate, taxCols[0], heading, { width: 110 });
    doc.text(t.base, taxCols[1], heading, { width: 130, align: 'right' });
    doc.text(t.vatAmount, taxCols[2], heading, { width: 130, align: 'right' });
    doc.y = heading + 14;
    doc.font(FONT).fontSize(10);
    for (const tax of row.taxes) {
      const y = doc.y;
      doc.text(f.rate(tax.vatRate), taxCols[0], y, { width: 110 });
      doc.text(f.money(tax.base), taxCols[1], y, { width: 130, align: 'right' });
      doc.text(f.money(tax.amount), taxCols[2], y, { width: 130, align: 'right' });
      doc.y = y + 14;
    }
  }
  doc.moveDown(0.8);
  pair(t.total, f.money(row.total), BOLD, 13);
  doc
    .font(FONT)
    .fontSize(8)
    .fillColor('#555555')
    .text(t.vatIncluded, MARGIN, doc.y + 4);
  doc.fillColor('black');

  // VERI*FACTU: the QR code of the record and AEAT's legend.
  if (qrUrl) {
    const needed = QR_SIZE + 40;
    if (doc.y + needed > bottomLimit) doc.addPage();
    const top = doc.y + 20;
    drawQr(doc, qrUrl, MARGIN, top, QR_SIZE);
    const textX = MARGIN + QR_SIZE + 16;
    doc
      .font(BOLD)
      .fontSize(12)
      .text('VERI*FACTU', textX, top + QR_SIZE / 2 - 16);
    doc
      .font(FONT)
      .fontSize(9)
      .text(VERIFACTU_LEGEND, textX, doc.y + 2, { width: RIGHT - textX });
    doc.y = top + QR_SIZE + 8;
  }

  // Page numbers, once every page is known.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // The footer sits in the bottom margin: no margin below it, so it never starts a new page.
    doc.page.margins.bottom = 0;
    doc
      .font(FONT)
      .fontSize(8)
      .fillColor('#555555')
      .text(
        `${row.issuer.name} · ${row.number} · ${fill(t.page, { n: i + 1, count: range.count })}`,
        MARGIN,
        A4.height - MARGIN + 14,
        { width: RIGHT - MARGIN, align: 'center', lineBreak: false },
      );
  }
  doc.end();
  return done;
}

/** The QR code (ISO/IEC 18004, error correction M as AEAT asks) drawn as vector squares. */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const cell = size / (modules.size + 2 * quiet);
  doc.save().rect(x, y, size, size).fill('white');
  doc.fillColor('black');
  for (let r = 0; r < modules.size; r++) {
    for (let c = 0; c < modules.size; c++) {
      if (modules.get(r, c)) doc.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, cell, cell);
    }
  }
  doc.fill('black').restore();
}
