import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hotelTag, taggedToken, tagOfId } from './hotel-tag.ts';

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

  it('reads the tag of an id, null for an id made before tags, false for any other shape', () => {
    assert.equal(tagOfId(taggedToken('q_', 'porto-ribeira', 16), 'q_', 16), hotelTag('porto-ribeira'));
    assert.equal(tagOfId(`q_${'a'.repeat(26)}`, 'q_', 16), null);
    assert.equal(tagOfId('q_short', 'q_', 16), false);
    assert.equal(tagOfId(taggedToken('q_', 'porto-ribeira', 16).slice(0, -1), 'q_', 16), false);
    assert.equal(tagOfId(taggedToken('cks_', 'porto-ribeira', 16), 'q_', 16), false);
  });
});
