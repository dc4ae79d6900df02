import assert from 'node:assert/strict';
import { test } from 'node:test';
import { passwordWeakness } from './password-strength.ts';

test('short, long and common passwords are refused, a passphrase is not', () => {
  assert.match(passwordWeakness('short') ?? '', /12 to 256/);
  assert.match(passwordWeakness('x'.repeat(257)) ?? '', /12 to 256/);
  assert.match(passwordWeakness('password1234') ?? '', /too easy/);
  assert.match(passwordWeakness('qwertyuiop123') ?? '', /too easy/);
  assert.equal(passwordWeakness('correct horse battery staple orbit'), null);
});

test('a password made of the person’s own name and e-mail is weak', () => {
  assert.match(
    passwordWeakness('ana.lopez@harbour.example', ['ana.lopez@harbour.example', 'Ana Lopez']) ?? '',
    /too easy/,
  );
});

test('the answer never repeats the password', () => {
  const weak = 'password1234';
  assert.ok(!(passwordWeakness(weak) ?? '').includes(weak));
});
