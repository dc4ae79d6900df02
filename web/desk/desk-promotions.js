// Promotion codes at the desk (API.md 14.1), for a credential with scope inventory:write: the
// hotel's codes with their uses, saving one (a new code, or a change of one, the API's answer
// shown next to each field it refuses) and removing one after a confirmation. The API checks
// everything; the desk only turns what is typed into the body and shows the answer.
import { api, Problem } from '../shared/api.js';
import { field, h } from '../shared/dom.js';
import { busy, problemMessage, showProblem } from '../shared/forms.js';
import { date, money, t } from '../shared/i18n.js';
import { show } from '../shared/layout.js';
import { operator } from './desk-api.js';

const promotions = {
  hotelId: null,
  list: null,
  currency: null,
  problem: null,
  notice: null,
  editing: null,
  removing: null,
};

/** Forgets what was read (another key, person or hotel). */
export function resetPromotions() {
  Object.assign(promotions, {
    hotelId: null,
    list: null,
    problem: null,
    notice: null,
    editing: null,
    removing: null,
  });
}

const path = (hotelId, code) =>
  `/hotels/${encodeURIComponent(hotelId)}/promotions${code ? `/${encodeURIComponent(code)}` : ''}`;

async function load(ctx) {
  try {
    const [{ body }, hotel] = await Promise.all([
      operator('GET', path(ctx.hotel.id)),
      api('GET', `/booking/hotels/${encodeURIComponent(ctx.hotel.id)}`).catch(() => null),
    ]);
    promotions.list = body.data;
    promotions.currency = hotel?.currency ?? promotions.currency;
    promotions.hotelId = ctx.hotel.id;
    promotions.problem = null;
  } catch (problem) {
    if (ctx.signedOut(problem)) return false;
    promotions.problem = problem;
  }
  return true;
}

/** Draws the promotions screen of the hotel chosen in the frame. */
export async function renderPromotions(ctx) {
  if (!ctx.hotel) return show(...ctx.frame(h('p', {}, t('desk.noHotel'))));
  if (promotions.hotelId !== ctx.hotel.id) resetPromotions();
  if (promotions.list === null && !promotions.problem && !(await load(ctx))) return;
  const alert = promotions.problem
    ? h('div', { class: 'form-alert', role: 'alert' }, problemMessage(promotions.problem))
    : null;
  const notice = promotions.notice ? h('p', { class: 'notice', role: 'status' }, promotions.notice) : null;
  show(
    ...ctx.frame(
      h('h1', {}, t('promoAdmin.heading')),
      alert,
      notice,
      h(
        'section',
        { 'aria-labelledby': 'promo-list-heading' },
        h('h2', { id: 'promo-list-heading' }, t('promoAdmin.codes', { count: promotions.list?.length ?? 0 })),
        promotions.list?.length ? codesTable(ctx) : h('p', {}, t('promoAdmin.none')),
      ),
      saveForm(ctx),
    ),
  );
}

function discountText(p) {
  if (p.discount?.percent !== undefined) return t('promoAdmin.percentOff', { percent: p.discount.percent });
  if (p.discount?.amountPerNight !== undefined && promotions.currency)
    return t('promoAdmin.perNightOff', {
      amount: money({ amount: p.discount.amountPerNight, currency: promotions.currency }),
    });
  return p.unlocksRatePlans?.length ? t('promoAdmin.unlocks', { plans: p.unlocksRatePlans.join(', ') }) : '—';
}

function periodText(from, to) {
  if (!from && !to) return '—';
  return `${from ? date(from) : '…'} – ${to ? date(to) : '…'}`;
}

function codesTable(ctx) {
  const rows = promotions.list.map((p) => {
    const confirming = promotions.removing === p.code;
    const actions = confirming
      ? h(
          'div',
          { class: 'buttons' },
          h('span', {}, t('promoAdmin.removeConfirm', { code: p.code })),
          h(
            'button',
            {
              type: 'button',
              class: 'danger',
              id: `promo-remove-yes-${p.code}`,
              onclick: () => remove(ctx, p.code),
            },
            t('promoAdmin.removeYes'),
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'secondary',
              onclick: () => {
                promotions.removing = null;
                renderPromotions(ctx);
              },
            },
            t('promoAdmin.keep'),
          ),
        )
      : h(
          'div',
          { class: 'buttons' },
          h(
            'button',
            {
              type: 'button',
              class: 'secondary small',
              'aria-label': t('promoAdmin.editCode', { code: p.code }),
              onclick: () => {
                promotions.editing = p;
                promotions.notice = null;
                renderPromotions(ctx).then(() => document.getElementById('promo-code')?.focus());
              },
            },
            t('promoAdmin.edit'),
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'secondary small',
              'aria-label': t('promoAdmin.removeCode', { code: p.code }),
              onclick: () => {
                promotions.removing = p.code;
                renderPromotions(ctx).then(() =>
                  document.getElementById(`promo-remove-yes-${p.code}`)?.focus(),
                );
              },
            },
            t('promoAdmin.remove'),
          ),
        );
    return h(
      'tr',
      {},
      h('td', {}, h('code', {}, p.code)),
      h('td', {}, p.name),
      h('td', {}, discountText(p)),
      h('td', {}, periodText(p.stayFrom, p.stayTo)),
      h('td', { class: 'num' }, p.maxUses ? `${p.uses} / ${p.maxUses}` : String(p.uses)),
      h('td', {}, t(`promoAdmin.source.${p.source}`)),
      h('td', {}, actions),
    );
  });
  return h(
    'div',
    { class: 'desk-folio-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'promo-list-heading' },
    h(
      'table',
      { class: 'desk-folio-lines' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['code', 'name', 'discount', 'stay', 'uses', 'source', 'actions'].map((c) =>
            h('th', { scope: 'col' }, t(`promoAdmin.col.${c}`)),
          ),
        ),
      ),
      h('tbody', {}, ...rows),
    ),
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

function saveForm(ctx) {
  const p = promotions.editing;
  const input = (name, attrs = {}) => h('input', { name, ...attrs });
  const code = input('code', {
    id: 'promo-code',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    value: p?.code ?? '',
    readonly: p ? true : undefined,
  });
  const name = input('name', { required: true, value: p?.name ?? '' });
  // The API names a refused amount by the discount's kind: the field follows the choice.
  const amountPath = (k) => (k === 'amountPerNight' ? '/discount/amountPerNight' : '/discount/percent');
  const kind = h(
    'select',
    {
      name: 'kind',
      onchange: (event) => {
        amount.dataset.path = amountPath(event.target.value);
      },
    },
    ['percent', 'amountPerNight', 'none'].map((k) =>
      h(
        'option',
        {
          value: k,
          selected:
            (k === 'percent' && p?.discount?.percent !== undefined) ||
            (k === 'amountPerNight' && p?.discount?.amountPerNight !== undefined) ||
            (k === 'none' && p && !p.discount),
        },
        t(`promoAdmin.kind.${k}`),
      ),
    ),
  );
  const amount = input('amount', {
    inputmode: 'decimal',
    autocomplete: 'off',
    value:
      p?.discount?.percent ??
      (p?.discount?.amountPerNight !== undefined && promotions.currency
        ? String(
            p.discount.amountPerNight /
              10 **
                (new Intl.NumberFormat('en', {
                  style: 'currency',
                  currency: promotions.currency,
                }).resolvedOptions().maximumFractionDigits ?? 2),
          )
        : ''),
  });
  const maxUses = input('maxUses', { type: 'number', min: '1', step: '1', value: p?.maxUses ?? '' });
  const minNights = input('minNights', { type: 'number', min: '1', step: '1', value: p?.minNights ?? '' });
  const dates = ['bookFrom', 'bookTo', 'stayFrom', 'stayTo'].map((k) =>
    field(t(`promoAdmin.field.${k}`), input(k, { type: 'date', value: p?.[k] ?? '' }), { path: `/${k}` }),
  );
  const form = h(
    'form',
    {
      class: 'card stack',
      novalidate: true,
      'aria-labelledby': 'promo-save-heading',
      onsubmit: async (event) => {
        event.preventDefault();
        const body = { name: name.value.trim() };
        const value = amount.value.trim();
        if (kind.value === 'percent')
          body.discount = { percent: /^\d+$/.test(value) ? Number(value) : value };
        if (kind.value === 'amountPerNight') {
          const minor = promotions.currency ? minorUnits(value, promotions.currency) : null;
          body.discount = { amountPerNight: minor ?? value };
        }
        if (kind.value === 'none' && p?.unlocksRatePlans) body.unlocksRatePlans = p.unlocksRatePlans;
        for (const k of ['ratePlans', 'roomTypes', 'unlocksRatePlans', 'maxUsesPerGuest'])
          if (p?.[k] !== undefined && body[k] === undefined) body[k] = p[k];
        if (maxUses.value) body.maxUses = Number(maxUses.value);
        if (minNights.value) body.minNights = Number(minNights.value);
        for (const k of ['bookFrom', 'bookTo', 'stayFrom', 'stayTo']) {
          const v = form.elements[k].value;
          if (v) body[k] = v;
        }
        const key = code.value.trim().toUpperCase();
        if (!key) {
          return showProblem(
            form,
            new Problem(
              {
                code: 'validation_error',
                detail: t('promoAdmin.codeMissing'),
                errors: [{ path: '/code', message: t('promoAdmin.codeMissing') }],
              },
              400,
            ),
          );
        }
        try {
          await busy(form, () => operator('PUT', path(ctx.hotel.id, key), { body }));
          promotions.notice = t('promoAdmin.saved', { code: key });
          promotions.editing = null;
          promotions.list = null; // read again: uses and the catalogue's codes as the API has them
          await renderPromotions(ctx);
        } catch (problem) {
          if (ctx.signedOut(problem)) return;
          showProblem(form, problem);
        }
      },
    },
    h(
      'h2',
      { id: 'promo-save-heading' },
      p ? t('promoAdmin.editHeading', { code: p.code }) : t('promoAdmin.add'),
    ),
    field(t('promoAdmin.field.code'), code, { path: '/code', hint: t('promoAdmin.codeHint') }),
    field(t('promoAdmin.field.name'), name, { path: '/name' }),
    field(t('promoAdmin.field.kind'), kind),
    field(t('promoAdmin.field.amount'), amount, {
      path: amountPath(kind.value),
      hint: t('promoAdmin.amountHint'),
    }),
    field(t('promoAdmin.field.maxUses'), maxUses, { path: '/maxUses' }),
    field(t('promoAdmin.field.minNights'), minNights, { path: '/minNights' }),
    ...dates,
    h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'submit', class: 'primary' }, t('promoAdmin.save')),
      p
        ? h(
            'button',
            {
              type: 'button',
              class: 'secondary',
              onclick: () => {
                promotions.editing = null;
                renderPromotions(ctx);
              },
            },
            t('promoAdmin.cancelEdit'),
          )
        : null,
    ),
  );
  return form;
}

async function remove(ctx, code) {
  try {
    await operator('DELETE', path(ctx.hotel.id, code));
    promotions.notice = t('promoAdmin.removed', { code });
    promotions.list = null; // read again
  } catch (problem) {
    if (ctx.signedOut(problem)) return;
    promotions.problem = problem;
  }
  promotions.removing = null;
  await renderPromotions(ctx);
}
