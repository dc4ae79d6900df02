import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { LANGUAGES, languageOfRequest, languageOr, preferredLanguage } from './languages.ts';

test('Accept-Language: the supported language with the highest weight, by primary subtag', () => {
  assert.equal(languageOfRequest(undefined), 'en');
  assert.equal(languageOfRequest(''), 'en');
  assert.equal(languageOfRequest('pt-BR,pt;q=0.9,en;q=0.8'), 'pt');
  assert.equal(languageOfRequest('de-DE, es;q=0.5, en;q=0.4'), 'es');
  assert.equal(languageOfRequest('fr, de'), 'en');
  assert.equal(languageOfRequest('en;q=0.2, ES;q=0.7'), 'es');
  assert.equal(languageOfRequest('es;q=0, pt'), 'pt');
  assert.equal(languageOfRequest('*'), 'en');
  assert.equal(languageOfRequest('es ;q=0.5, en;q=0.4'), 'es');
  assert.equal(preferredLanguage('fr, de'), null);
  assert.equal(preferredLanguage('es;q=abc, pt;q=0.1'), 'pt');
});

test('a stored language Innkeep does not speak is read as English', () => {
  assert.equal(languageOr('es'), 'es');
  assert.equal(languageOr('de'), 'en');
  assert.equal(languageOr(undefined), 'en');
});

test('the browser’s language list is this one', () => {
  const js = readFileSync(new URL('../../../web/shared/i18n.js', import.meta.url), 'utf8');
  const declared = /export const LANGUAGES = (\[[^\]]*\]);/.exec(js)?.[1] ?? '';
  assert.deepEqual(JSON.parse(declared.replaceAll("'", '"')), [...LANGUAGES]);
});
