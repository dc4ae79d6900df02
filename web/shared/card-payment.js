// The card step of the booking and check-in pages (API.md 4 and 9), for whichever provider the
// service uses (GET /api/v1/payments/config): the test provider's tokens, or Stripe Elements, with
// 3-D Secure completed in the page. Card numbers only ever go to Stripe (its own fields); the
// service receives a PaymentMethod id (`pm_…`) or, after 3-D Secure, the PaymentIntent id (`pi_…`).
import { api, Problem } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { testCardChoice } from './test-cards.js';

let config = null;
let stripe = null;
let loading = null;
let card = null;

/** The provider's settings, asked once per page. */
export async function paymentConfig() {
  config ??= await api('GET', '/payments/config').catch(() => ({ provider: 'test' }));
  return config;
}

/** Stripe.js, from the URL the page names (`data-stripe-js`: js.stripe.com, or a test stand-in). */
function loadStripe() {
  loading ??= new Promise((resolve, reject) => {
    const script = h('script', { src: document.body.dataset.stripeJs });
    script.addEventListener('load', () => resolve(window.Stripe(config.publishableKey)));
    script.addEventListener('error', () => reject(new Problem({ code: 'network_error' }, 0)));
    document.head.append(script);
  });
  return loading;
}

/**
 * The card field: with Stripe, Elements' card input mounted once Stripe.js has loaded; with the
 * test provider, the choice among its tokens (and the test-card note, only there).
 */
export function paymentField(path, legend) {
  if (config?.provider !== 'stripe') return testCardChoice(path, legend);
  const mount = h('div', { class: 'stripe-card', 'data-stripe-card': '' });
  const fieldset = h(
    'fieldset',
    { 'data-path': path, class: 'cards', tabindex: '-1' },
    h('legend', {}, legend),
    h('p', { class: 'hint' }, t('payment.stripeNote')),
    mount,
  );
  loadStripe()
    .then((loaded) => {
      stripe = loaded;
      card?.destroy?.();
      card = stripe.elements().create('card', { hidePostalCode: true });
      card.mount(mount);
    })
    .catch(() => mount.append(h('p', { class: 'field-error' }, t('problem.network_error'))));
  return fieldset;
}

/** A problem the page shows at the card field, for what Stripe.js refused before any request. */
function cardProblem(path, message) {
  return new Problem({ code: 'payment_failed', detail: message, errors: [{ path, message }] }, 402);
}

/**
 * Pays with the card of `form` and sends the request: `send(token)` posts it. A `402` that
 * carries `nextAction` (3-D Secure) is completed with Stripe.js, then the same request is sent
 * again with the PaymentIntent id as the token (a new body, so a new Idempotency-Key).
 */
export async function payAndSend(form, path, send) {
  if (config?.provider !== 'stripe')
    return send(form.querySelector('input[name=token]:checked')?.value ?? '');
  if (!stripe || !card) throw cardProblem(path, t('payment.cardLoading'));
  const created = await stripe.createPaymentMethod({ type: 'card', card });
  if (created.error) throw cardProblem(path, created.error.message);
  try {
    return await send(created.paymentMethod.id);
  } catch (error) {
    if (!(error instanceof Problem) || error.nextAction?.type !== 'stripe') throw error;
    const done = await stripe.handleNextAction({ clientSecret: error.nextAction.clientSecret });
    if (done.error) throw cardProblem(path, done.error.message);
    return send(done.paymentIntent.id);
  }
}
