import type { Language } from '../../infra/i18n/languages.ts';

/** The words of an invoice's PDF (API.md 13), per language; `{x}` are filled in. */
export interface InvoiceTexts {
  /** The locale whose conventions numbers, dates and money follow. */
  locale: string;
  title: { invoice: string; credit_note: string };
  number: string;
  issueDate: string;
  reservation: string;
  corrects: string;
  reason: string;
  issuer: string;
  recipient: string;
  taxId: string;
  description: string;
  quantity: string;
  unitPrice: string;
  vat: string;
  amount: string;
  outsideVat: string;
  vatBreakdown: string;
  vatRate: string;
  base: string;
  vatAmount: string;
  total: string;
  vatIncluded: string;
  page: string;
}

export const INVOICE_TEXTS: Record<Language, InvoiceTexts> = {
  en: {
    locale: 'en-GB',
    title: { invoice: 'Invoice', credit_note: 'Credit note' },
    number: 'Number',
    issueDate: 'Issue date',
    reservation: 'Reservation',
    corrects: 'Corrects invoice {number} of {date}',
    reason: 'Reason',
    issuer: 'Issued by',
    recipient: 'Billed to',
    taxId: 'Tax ID',
    description: 'Description',
    quantity: 'Qty',
    unitPrice: 'Unit price',
    vat: 'VAT',
    amount: 'Amount',
    outsideVat: 'not subject',
    vatBreakdown: 'VAT breakdown',
    vatRate: 'VAT rate',
    base: 'Taxable base',
    vatAmount: 'VAT',
    total: 'Total',
    vatIncluded: 'Prices include VAT where a rate is shown.',
    page: 'Page {n} of {count}',
  },
  es: {
    locale: 'es-ES',
    title: { invoice: 'Factura', credit_note: 'Factura rectificativa' },
    number: 'Número',
    issueDate: 'Fecha de expedición',
    reservation: 'Reserva',
    corrects: 'Rectifica la factura {number} del {date}',
    reason: 'Motivo',
    issuer: 'Emisor',
    recipient: 'Destinatario',
    taxId: 'NIF',
    description: 'Descripción',
    quantity: 'Cant.',
    unitPrice: 'Precio unitario',
    vat: 'IVA',
    amount: 'Importe',
    outsideVat: 'no sujeto',
    vatBreakdown: 'Desglose del IVA',
    vatRate: 'Tipo de IVA',
    base: 'Base imponible',
    vatAmount: 'Cuota de IVA',
    total: 'Total',
    vatIncluded: 'Los precios incluyen el IVA donde se indica un tipo.',
    page: 'Página {n} de {count}',
  },
  pt: {
    locale: 'pt-PT',
    title: { invoice: 'Fatura', credit_note: 'Nota de crédito' },
    number: 'Número',
    issueDate: 'Data de emissão',
    reservation: 'Reserva',
    corrects: 'Retifica a fatura {number} de {date}',
    reason: 'Motivo',
    issuer: 'Emitente',
    recipient: 'Cliente',
    taxId: 'NIF',
    description: 'Descrição',
    quantity: 'Qtd.',
    unitPrice: 'Preço unitário',
    vat: 'IVA',
    amount: 'Valor',
    outsideVat: 'não sujeito',
    vatBreakdown: 'Resumo do IVA',
    vatRate: 'Taxa de IVA',
    base: 'Base tributável',
    vatAmount: 'IVA',
    total: 'Total',
    vatIncluded: 'Os preços incluem IVA quando é indicada uma taxa.',
    page: 'Página {n} de {count}',
  },
};
