import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMediaName, photoView, servedWidths } from './photo-sizes.ts';

describe('photo sizes', () => {
  it('never serves a size wider than the file', () => {
    assert.deepEqual(servedWidths(300), [300]);
    assert.deepEqual(servedWidths(480), [480]);
    assert.deepEqual(servedWidths(1000), [480, 960, 1000]);
    assert.deepEqual(servedWidths(1920), [480, 960, 1440, 1920]);
    assert.deepEqual(servedWidths(4000), [480, 960, 1440, 1920]);
    for (let w = 1; w < 5000; w += 37) assert.ok(servedWidths(w).every((x) => x <= w));
  });

  it('reads back only the names it makes', () => {
    assert.deepEqual(parseMediaName('0123456789abcdef0123-480.webp'), {
      hash: '0123456789abcdef0123',
      width: 480,
      format: 'webp',
    });
    for (const name of [
      '../x-480.jpg',
      '0123456789abcdef0123-480.png',
      '0123456789abcdef0123-0.jpg',
      'x.jpg',
    ])
      assert.equal(parseMediaName(name), null, name);
  });

  it('answers src at most 960 wide, with its height, alt in the language asked', () => {
    const file = { path: '/x.jpg', hash: '0123456789abcdef0123', width: 3000, height: 2000 };
    const view = photoView({ file, alt: { name: 'Bed', names: { es: 'Cama' } } }, 'es', 'Room');
    assert.equal(view?.src, '/media/0123456789abcdef0123-960.jpg');
    assert.equal(view?.width, 960);
    assert.equal(view?.height, 640);
    assert.equal(view?.alt, 'Cama');
    assert.equal(photoView({ file }, null, 'Room')?.alt, 'Room');
  });
});
