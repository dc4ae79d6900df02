import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LANGUAGES } from '../../infra/i18n/languages.ts';
import { TEXTS } from './texts.ts';

/** Every text of a catalogue by its path (`labels.hotel`), arrays and objects walked alike. */
function leaves(value: unknown, path = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(path, value);
  else if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value))
      for (const [p, text] of leaves(inner, path ? `${path}.${key}` : key)) out.set(p, text);
  return out;
}
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every language of messages/i18n/ has every text, none empty, with the same placeholders', () => {
  const english = leaves(TEXTS.en);
  assert.ok(english.size > 50);
  for (const lang of LANGUAGES) {
    const texts = leaves(TEXTS[lang]);
    assert.deepEqual([...texts.keys()].sort(), [...english.keys()].sort(), `${lang}: the same keys as en`);
    for (const [path, text] of texts) {
      assert.ok(text.trim() !== '', `${lang} ${path} is empty`);
      assert.deepEqual(placeholders(text), placeholders(english.get(path) ?? ''), `${lang} ${path}`);
    }
  }
});
