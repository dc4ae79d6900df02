import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldName, sameLastName } from './proof.ts';

describe('last-name proof', () => {
  it('ignores case, accents and spaces', () => {
    assert.equal(foldName('  Conceição '), 'conceicao');
    assert.ok(sameLastName('SILVA', 'Silva'));
    assert.ok(sameLastName('muller', 'Müller'));
    assert.ok(sameLastName(' da  costa ', 'Da Costa'));
    assert.ok(sameLastName('Ñúñez', 'nunez'));
  });

  it('refuses other names and empty input', () => {
    assert.equal(sameLastName('Silvas', 'Silva'), false);
    assert.equal(sameLastName('   ', 'Silva'), false);
    assert.equal(sameLastName('Mueller', 'Müller'), false);
  });
});
