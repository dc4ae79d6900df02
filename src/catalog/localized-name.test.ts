import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogue, problemsOf } from './catalog.fixtures.ts';
import { parseCatalog } from './catalog.validate.ts';
import { loadName, nameIn } from './localized-name.ts';

describe('catalogue names per language (API.md 9)', () => {
  it('keeps the plain name, or the English one, else the first given, and the others by language', () => {
    assert.deepEqual(loadName('Double Room'), { name: 'Double Room' });
    assert.deepEqual(loadName({ es: 'Doble', en: 'Double' }), {
      name: 'Double',
      names: { en: 'Double', es: 'Doble' },
    });
    assert.equal(loadName({ pt: 'Quarto duplo', es: 'Habitación doble' }).name, 'Quarto duplo');
  });

  it('nameIn: the language asked for, else the plain name', () => {
    const room = loadName({ en: 'Double Room', es: 'Habitación doble' });
    assert.equal(nameIn(room, 'es'), 'Habitación doble');
    assert.equal(nameIn(room, 'pt'), 'Double Room');
    assert.equal(nameIn(room, null), 'Double Room');
    assert.equal(nameIn({ name: 'Suite' }, 'es'), 'Suite');
  });

  it('loads names by language for the hotel, room types, rate plans, services and taxes', () => {
    const json = catalogue();
    const hotel = json.hotels[0];
    hotel.name = { en: 'Harbour View', pt: 'Vista do Porto' };
    hotel.roomTypes[0].name = { en: 'Double Room', es: 'Habitación doble' };
    hotel.ratePlans[0].name = { es: 'Flexible', pt: 'Flexível' };
    hotel.services = [
      { id: 'bf', name: { en: 'Breakfast', pt: 'Pequeno-almoço' }, pricing: 'per_stay', amount: 1 },
    ];
    hotel.taxes = [{ code: 'vat', name: { en: 'VAT', es: 'IVA' }, type: 'percent_included', rate: 10 }];
    const { hotels, warnings } = parseCatalog(json);
    assert.deepEqual(warnings, []);
    const [loaded] = hotels;
    assert.ok(loaded);
    assert.equal(nameIn(loaded, 'pt'), 'Vista do Porto');
    assert.equal(loaded.roomTypes[0]?.name, 'Double Room');
    assert.equal(nameIn(loaded.roomTypes[0] ?? { name: '' }, 'es'), 'Habitación doble');
    assert.equal(loaded.ratePlans[0]?.name, 'Flexible');
    assert.equal(nameIn(loaded.services[0] ?? { name: '' }, 'pt'), 'Pequeno-almoço');
    assert.equal(nameIn(loaded.taxes[0] ?? { name: '' }, 'es'), 'IVA');
    assert.equal(loaded.roomTypes[1]?.names, undefined, 'a plain name has no names by language');
  });

  it('refuses a name in neither form, saying what is wrong and where', () => {
    const json = catalogue();
    const hotel = json.hotels[0];
    hotel.name = { en: 'Harbour View', es: '' };
    hotel.roomTypes[0].name = { fr: 'Chambre double' };
    hotel.roomTypes[1].name = 7;
    hotel.ratePlans[0].name = {};
    assert.deepEqual(problemsOf(json), [
      'hotels/0/name/es: must NOT have fewer than 1 characters',
      'hotels/0/roomTypes/0/name/fr: is not a language names may be given in: use "en", "es" or "pt"',
      'hotels/0/roomTypes/1/name: must be a name ("Double Room") or names by language ({ "en": "Double Room", "es": "Habitación doble", "pt": "Quarto duplo" })',
      'hotels/0/ratePlans/0/name: must give the name in at least one language: "en", "es" or "pt"',
    ]);
  });
});
