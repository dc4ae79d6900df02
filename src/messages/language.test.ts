import assert from 'node:assert/strict';
import { test } from 'node:test';
import { languageFromAcceptLanguage } from './language.ts';

test('Accept-Language: the supported language with the highest weight, by primary subtag', () => {
  assert.equal(languageFromAcceptLanguage(undefined), 'en');
  assert.equal(languageFromAcceptLanguage(''), 'en');
  assert.equal(languageFromAcceptLanguage('pt-BR,pt;q=0.9,en;q=0.8'), 'pt');
  assert.equal(languageFromAcceptLanguage('de-DE, es;q=0.5, en;q=0.4'), 'es');
  assert.equal(languageFromAcceptLanguage('fr, de'), 'en');
  assert.equal(languageFromAcceptLanguage('en;q=0.2, ES;q=0.7'), 'es');
  assert.equal(languageFromAcceptLanguage('es;q=0, pt'), 'pt');
  assert.equal(languageFromAcceptLanguage('*'), 'en');
});
