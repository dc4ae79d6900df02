import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Hotel } from './catalog.schema.ts';
import { hotelsTagged, hotelTag, taggedToken } from './hotel-tag.ts';

const catalog = (...ids: string[]) => ({ all: () => ids.map((id) => ({ id }) as Hotel) });

describe('hotel tags in identifiers (issue 37)', () => {
  it('is six base32 characters, the same for a hotel every time, different between hotels', () => {
    assert.match(hotelTag('alfama-lisbon'), /^[0-9a-z]{6}$/);
    assert.equal(hotelTag('alfama-lisbon'), hotelTag('alfama-lisbon'));
    const tags = new Set(Array.from({ length: 1000 }, (_, i) => hotelTag(`hotel-${i}`)));
    assert.ok(tags.size >= 999, `${tags.size} distinct tags of 1,000 hotels`);
  });

  it('keeps the random part whole: the id is the prefix, the tag and the full random base32', () => {
    const id = taggedToken('q_', 'alfama-lisbon', 16);
    assert.equal(id.slice(0, 8), `q_${hotelTag('alfama-lisbon')}`);
    assert.match(id.slice(8), /^[0-9a-z]{26}$/);
    assert.notEqual(taggedToken('q_', 'alfama-lisbon', 16), id);
  });

  it('names the hotels of its tag, none for a foreign tag or shape, null for an id made before tags', () => {
    const hotels = catalog('alfama-lisbon', 'porto-ribeira');
    assert.deepEqual(hotelsTagged(hotels, taggedToken('q_', 'porto-ribeira', 16), 'q_', 16), [
      'porto-ribeira',
    ]);
    assert.deepEqual(hotelsTagged(hotels, taggedToken('q_', 'elsewhere', 16), 'q_', 16), []);
    assert.equal(hotelsTagged(hotels, `q_${'a'.repeat(26)}`, 'q_', 16), null);
    assert.deepEqual(hotelsTagged(hotels, 'q_short', 'q_', 16), []);
    assert.deepEqual(hotelsTagged(hotels, taggedToken('cks_', 'porto-ribeira', 16), 'q_', 16), []);
  });
});
