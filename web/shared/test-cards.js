import { h } from './dom.js';
import { t } from './i18n.js';

/** The built-in test payment provider's tokens (API.md section 4): two pay, two are declined. */
export const TEST_CARDS = ['tok_visa', 'tok_mastercard', 'tok_declined', 'tok_insufficient_funds'];

/**
 * A choice among the test provider's tokens: no card number is ever typed or sent (a real
 * provider's own form would produce the token). `path` is where the API reports a bad token.
 */
export function testCardChoice(path, legend) {
  return h(
    'fieldset',
    { 'data-path': path, class: 'cards', tabindex: '-1' },
    h('legend', {}, legend),
    h('p', { class: 'hint' }, t('payment.testNote')),
    TEST_CARDS.map((token, index) =>
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'radio', name: 'token', value: token, checked: index === 0 }),
        h('span', {}, t(`card.${token}`), ' ', h('span', { class: 'muted' }, token)),
      ),
    ),
  );
}
