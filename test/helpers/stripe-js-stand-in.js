// A stand-in for Stripe.js (https://js.stripe.com/v3) served by test/helpers/fake-stripe.ts: the
// few calls Innkeep's pages make — Stripe(key), elements().create('card').mount(el),
// createPaymentMethod({ type: 'card', card }), handleNextAction({ clientSecret }) — answering as
// Stripe.js does for Stripe's test card numbers. The real one needs the internet.
(() => {
  const origin = new URL(document.currentScript.src).origin;
  const CARDS = {
    4242424242424242: 'pm_card_visa',
    4000000000000002: 'pm_card_chargeDeclined',
    4000000000009995: 'pm_card_chargeDeclinedInsufficientFunds',
    4000002760003184: 'pm_card_threeDSecure2Required',
  };
  window.Stripe = (publishableKey) => {
    if (!/^pk_test_/.test(publishableKey))
      throw new Error('Stripe stand-in: a test publishable key is expected');
    return {
      elements() {
        return {
          create(type) {
            if (type !== 'card') throw new Error(`Stripe stand-in: no ${type} element`);
            let input = null;
            return {
              mount(target) {
                const el = typeof target === 'string' ? document.querySelector(target) : target;
                input = document.createElement('input');
                input.setAttribute('aria-label', 'Card number');
                input.setAttribute('autocomplete', 'cc-number');
                input.setAttribute('inputmode', 'numeric');
                el.append(input);
              },
              destroy() {
                input?.remove();
              },
              on() {},
              value: () => (input?.value ?? '').replace(/\s+/g, ''),
            };
          },
        };
      },
      async createPaymentMethod({ type, card }) {
        if (type !== 'card') throw new Error('Stripe stand-in: card only');
        const number = card.value();
        if (!number)
          return { error: { type: 'validation_error', message: 'Your card number is incomplete.' } };
        const id = CARDS[number];
        if (!id) return { error: { type: 'validation_error', message: 'Your card number is invalid.' } };
        return { paymentMethod: { id, object: 'payment_method', type: 'card' } };
      },
      async handleNextAction({ clientSecret }) {
        const response = await fetch(`${origin}/test/complete-action`, {
          method: 'POST',
          body: clientSecret,
        });
        const body = await response.json();
        return body.error ? { error: body.error } : { paymentIntent: body };
      },
    };
  };
})();
