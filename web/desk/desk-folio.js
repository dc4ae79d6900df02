// A reservation's folio at the desk (API.md 13): its lines, payments and balance; adding a charge
// at one of the hotel's VAT rates, voiding one, recording a payment or refund; issuing an invoice
// to the guest or a company; downloading an invoice's PDF; annulling one with a credit note.
import { field, h, replaceContent } from '../shared/dom.js';
import { busy, problemMessage, showProblem } from '../shared/forms.js';
import { date, locale, money, t } from '../shared/i18n.js';
import { operator, operatorFile } from './desk-api.js';

const METHODS = ['cash', 'card_terminal', 'bank_transfer'];

/** The folio card: drawn at once, filled when the folio arrives (read again after each change). */
export function folioSection(detail, ctx) {
  const body = h('div', { class: 'stack desk-folio', 'aria-live': 'polite' });
  const card = h(
    'section',
    { class: 'card stack', 'aria-labelledby': 'folio-heading', id: 'folio' },
    h('h2', { id: 'folio-heading' }, t('folio.heading')),
    body,
  );
  load(detail, ctx, body);
  return card;
}

const path = (detail, rest = '') => `/reservations/${encodeURIComponent(detail.reservation.id)}/folio${rest}`;

async function load(detail, ctx, body, notice = null) {
  if (!body.firstChild) body.replaceChildren(h('p', { class: 'loading' }, t('loading')));
  try {
    const { body: folio } = await operator('GET', path(detail));
    const reload = (text) => load(detail, ctx, body, text);
    // replaceContent, not replaceChildren: the parts that are not there (null) are left out.
    replaceContent(
      body,
      notice ? h('p', { class: 'notice', role: 'status' }, notice) : null,
      linesTable(folio, detail, ctx, reload),
      totals(folio),
      paymentsList(folio),
      invoicesList(folio, ctx, reload),
      chargeForm(folio, detail, ctx, reload),
      paymentForm(folio, detail, ctx, reload),
      invoiceForm(detail, ctx, reload),
    );
  } catch (problem) {
    if (ctx.signedOut(problem)) return;
    body.replaceChildren(h('div', { class: 'form-alert', role: 'alert' }, problemMessage(problem)));
  }
}

/** A VAT rate as the page's language writes it; "outside VAT" for none. */
function rate(vatRate) {
  if (vatRate === null || vatRate === undefined) return t('folio.noVat');
  return new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 2 }).format(
    vatRate / 100,
  );
}

/** An amount typed at the desk (`4,50` or `4.50`) in minor units of `currency`; null if it is not one. */
function minorUnits(text, currency) {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const clean = text.trim().replace(/\s/g, '').replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(clean)) return null;
  const [whole, fraction = ''] = clean.split('.');
  if (fraction.length > digits) return null;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

function linesTable(folio, detail, ctx, reload) {
  const numbers = Object.fromEntries(folio.invoices.map((i) => [i.id, i.number]));
  // On a narrow screen the table scrolls sideways: its frame is focusable, so a keyboard scrolls it too.
  return h(
    'div',
    { class: 'desk-folio-scroll', tabindex: '0', role: 'region', 'aria-label': t('folio.lines') },
    h(
      'table',
      { class: 'desk-folio-lines' },
      h('caption', { class: 'visually-hidden' }, t('folio.lines')),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['date', 'description', 'quantity', 'amount', 'vat', 'state', 'actions'].map((c) =>
            h('th', { scope: 'col' }, t(`folio.column.${c}`)),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        folio.lines.map((line) =>
          h(
            'tr',
            { 'data-line': line.id, 'data-type': line.type, class: line.voided ? 'voided' : null },
            h('td', {}, date(line.date)),
            h('td', {}, line.description),
            h('td', { class: 'num' }, String(line.quantity)),
            h('td', { class: 'num' }, money(line.amount)),
            h('td', { class: 'num' }, rate(line.vatRate)),
            h(
              'td',
              {},
              line.voided
                ? t('folio.voided')
                : line.invoiceId
                  ? t('folio.invoiced', { number: numbers[line.invoiceId] ?? line.invoiceId })
                  : t('folio.open'),
            ),
            h(
              'td',
              {},
              line.type === 'charge' && !line.voided && !line.invoiceId
                ? h(
                    'button',
                    {
                      type: 'button',
                      class: 'secondary small',
                      onclick: async (event) => {
                        const button = event.currentTarget;
                        button.disabled = true;
                        try {
                          await operator(
                            'POST',
                            path(detail, `/charges/${encodeURIComponent(line.id)}/void`),
                          );
                          reload(t('folio.voidDone'));
                        } catch (problem) {
                          button.disabled = false;
                          if (ctx.signedOut(problem)) return;
                          button.after(
                            h('div', { class: 'form-alert', role: 'alert' }, problemMessage(problem)),
                          );
                        }
                      },
                    },
                    t('folio.void'),
                  )
                : null,
            ),
          ),
        ),
      ),
    ),
  );
}

function totals(folio) {
  return h(
    'dl',
    { class: 'desk-folio-totals' },
    [
      ['total', folio.total],
      ['paid', folio.paid],
      ['balance', folio.balance],
    ].flatMap(([key, value]) => [
      h('dt', {}, t(`folio.${key}`)),
      h('dd', { 'data-total': key }, money(value)),
    ]),
  );
}

function paymentsList(folio) {
  if (folio.payments.length === 0) return h('p', { class: 'muted' }, t('folio.noPayments'));
  return h(
    'ul',
    { class: 'desk-folio-payments', 'aria-label': t('folio.payments') },
    folio.payments.map((p) =>
      h(
        'li',
        { 'data-kind': p.kind },
        `${t(`folio.kind.${p.kind}`)} · ${t(`folio.method.${p.method}`)} · ${money(p.amount)}`,
        p.reference ? ` · ${p.reference}` : '',
      ),
    ),
  );
}

function invoicesList(folio, ctx, reload) {
  if (folio.invoices.length === 0) return null;
  return h(
    'div',
    { class: 'stack' },
    h('h3', {}, t('folio.invoices')),
    h(
      'ul',
      { class: 'desk-folio-invoices' },
      folio.invoices.map((i) => {
        const item = h(
          'li',
          { 'data-invoice': i.id, 'data-number': i.number },
          h('strong', {}, i.number),
          ` · ${t(`folio.type.${i.type}`)} · ${date(i.issueDate)} · ${i.recipient} · ${money(i.total)} `,
          h(
            'button',
            {
              type: 'button',
              class: 'secondary small',
              onclick: () => download(i, ctx, item),
            },
            t('folio.pdf'),
          ),
        );
        if (i.type === 'invoice' && !i.correctedBy) item.append(' ', creditNoteForm(i, ctx, reload));
        if (i.correctedBy) item.append(' ', h('span', { class: 'badge' }, t('folio.corrected')));
        return item;
      }),
    ),
  );
}

async function download(invoice, ctx, item) {
  try {
    const blob = await operatorFile(`/invoices/${encodeURIComponent(invoice.id)}/pdf`);
    const url = URL.createObjectURL(blob);
    const link = h('a', { href: url, download: `${invoice.number}.pdf`, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (problem) {
    if (ctx.signedOut(problem)) return;
    item.append(h('div', { class: 'form-alert', role: 'alert' }, problemMessage(problem)));
  }
}

function creditNoteForm(invoice, ctx, reload) {
  const reason = h('input', { name: 'reason', required: true, maxlength: 500 });
  const form = h(
    'form',
    {
      class: 'inline-form',
      novalidate: true,
      'data-credit-note': invoice.id,
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          const { body } = await busy(form, () =>
            operator('POST', `/invoices/${encodeURIComponent(invoice.id)}/credit-note`, {
              body: { reason: reason.value.trim() },
            }),
          );
          reload(t('folio.creditNoteDone', { number: body.number }));
        } catch (problem) {
          if (ctx.signedOut(problem)) return;
          showProblem(form, problem);
        }
      },
    },
    field(t('folio.reason'), reason, { path: '/reason' }),
    h('button', { type: 'submit', class: 'secondary small' }, t('folio.creditNote')),
  );
  return form;
}

function chargeForm(folio, detail, ctx, reload) {
  const description = h('input', { name: 'description', required: true, maxlength: 200 });
  const amount = h('input', { name: 'unitAmount', required: true, inputmode: 'decimal' });
  const quantity = h('input', { name: 'quantity', type: 'number', min: 1, value: 1 });
  const vat = h(
    'select',
    { name: 'vatRate' },
    folio.vatRates.map((r) => h('option', { value: String(r) }, rate(r))),
    h('option', { value: '' }, t('folio.noVat')),
  );
  const form = h(
    'form',
    {
      class: 'stack',
      novalidate: true,
      id: 'folio-charge',
      onsubmit: async (event) => {
        event.preventDefault();
        const unitAmount = minorUnits(amount.value, folio.currency);
        try {
          await busy(form, () =>
            operator('POST', path(detail, '/charges'), {
              body: {
                description: description.value.trim(),
                // Not a number the API takes: it says what is wrong, next to the field.
                unitAmount: unitAmount ?? amount.value,
                quantity: Number(quantity.value || 1),
                vatRate: vat.value === '' ? null : Number(vat.value),
              },
            }),
          );
          reload(t('folio.chargeDone'));
        } catch (problem) {
          if (ctx.signedOut(problem)) return;
          showProblem(form, problem);
        }
      },
    },
    h('h3', {}, t('folio.addCharge')),
    field(t('folio.description'), description, { path: '/description' }),
    field(t('folio.unitAmount', { currency: folio.currency }), amount, { path: '/unitAmount' }),
    field(t('folio.quantity'), quantity, { path: '/quantity' }),
    field(t('folio.vatRate'), vat, { path: '/vatRate' }),
    h('button', { type: 'submit' }, t('folio.addChargeButton')),
  );
  return form;
}

function paymentForm(folio, detail, ctx, reload) {
  const amount = h('input', { name: 'amount', required: true, inputmode: 'decimal' });
  const method = h(
    'select',
    { name: 'method' },
    METHODS.map((m) => h('option', { value: m }, t(`folio.method.${m}`))),
  );
  const kind = h(
    'select',
    { name: 'kind' },
    ['payment', 'refund'].map((k) => h('option', { value: k }, t(`folio.kind.${k}`))),
  );
  const reference = h('input', { name: 'reference', maxlength: 200 });
  const form = h(
    'form',
    {
      class: 'stack',
      novalidate: true,
      id: 'folio-payment',
      onsubmit: async (event) => {
        event.preventDefault();
        const minor = minorUnits(amount.value, folio.currency);
        try {
          await busy(form, () =>
            operator('POST', path(detail, '/payments'), {
              body: {
                amount: minor ?? amount.value,
                method: method.value,
                kind: kind.value,
                ...(reference.value.trim() ? { reference: reference.value.trim() } : {}),
              },
            }),
          );
          reload(t('folio.paymentDone'));
        } catch (problem) {
          if (ctx.signedOut(problem)) return;
          showProblem(form, problem);
        }
      },
    },
    h('h3', {}, t('folio.recordPayment')),
    field(t('folio.amount', { currency: folio.currency }), amount, { path: '/amount' }),
    field(t('folio.methodLabel'), method, { path: '/method' }),
    field(t('folio.kindLabel'), kind, { path: '/kind' }),
    field(t('folio.reference'), reference, { path: '/reference' }),
    h('button', { type: 'submit' }, t('folio.recordPaymentButton')),
  );
  return form;
}

function invoiceForm(detail, ctx, reload) {
  const guest = `${detail.reservation.guest.firstName} ${detail.reservation.guest.lastName}`;
  const toCompany = h('input', { type: 'checkbox', name: 'company' });
  const name = h('input', { name: 'name', maxlength: 200 });
  const taxId = h('input', { name: 'taxId', maxlength: 30 });
  const address = h('input', { name: 'address', maxlength: 500 });
  const country = h('input', { name: 'country', maxlength: 2, placeholder: 'ES' });
  const company = h(
    'fieldset',
    { class: 'stack', hidden: true },
    h('legend', {}, t('folio.company')),
    field(t('folio.companyName'), name, { path: '/recipient/name' }),
    field(t('folio.taxId'), taxId, { path: '/recipient/taxId' }),
    field(t('folio.address'), address, { path: '/recipient/address' }),
    field(t('folio.country'), country, { path: '/recipient/country' }),
  );
  toCompany.addEventListener('change', () => {
    company.hidden = !toCompany.checked;
  });
  const form = h(
    'form',
    {
      class: 'stack',
      novalidate: true,
      id: 'folio-invoice',
      onsubmit: async (event) => {
        event.preventDefault();
        const recipient = toCompany.checked
          ? Object.fromEntries(
              [
                ['name', name.value.trim()],
                ['taxId', taxId.value.trim()],
                ['address', address.value.trim()],
                ['country', country.value.trim().toUpperCase()],
              ].filter(([key, value]) => key === 'name' || value !== ''),
            )
          : undefined;
        try {
          const { body } = await busy(form, () =>
            operator('POST', `/reservations/${encodeURIComponent(detail.reservation.id)}/invoices`, {
              body: recipient ? { recipient } : {},
            }),
          );
          reload(t('folio.invoiceDone', { number: body.number }));
        } catch (problem) {
          if (ctx.signedOut(problem)) return;
          showProblem(form, problem);
        }
      },
    },
    h('h3', {}, t('folio.issueInvoice')),
    h('p', { class: 'muted' }, t('folio.toGuest', { name: guest })),
    h('label', {}, toCompany, ' ', t('folio.toCompany')),
    company,
    h('button', { type: 'submit' }, t('folio.issueInvoiceButton')),
  );
  return form;
}
