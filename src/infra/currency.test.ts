import assert from 'node:assert/strict';
import { test } from 'node:test';
import { minorDigits } from './currency.ts';

test('minorDigits: ISO 4217 minor-unit digits, 2 for a code the runtime does not know', () => {
  assert.equal(minorDigits('EUR'), 2);
  assert.equal(minorDigits('JPY'), 0);
  assert.equal(minorDigits('KWD'), 3);
  assert.equal(minorDigits('EUR'), 2); // answered again from its memo
  assert.equal(minorDigits('not a currency'), 2);
});
