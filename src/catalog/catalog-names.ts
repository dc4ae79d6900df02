import type { Language } from '../infra/i18n/languages.ts';
import type { Hotel } from './catalog.schema.ts';
import { nameIn } from './localized-name.ts';

export type Named = { id: string; name: string };
export type Line = { type: 'room' | 'discount' | 'service' | 'tax'; code: string; name: string };

/**
 * A hotel's catalogue things named in one language, by id (API.md 9): the one way answers and
 * e-mails name what a stored quote or reservation holds under its plain names. `lang` null (none
 * asked) and ids the catalogue no longer has keep the name they came with.
 */
export function namer(hotel: Hotel | undefined, lang: Language | null) {
  const find = <T extends { name: string }>(list: readonly T[] | undefined, key: (x: T) => string) => {
    return (id: string, fallback: string): string => {
      if (!hotel || lang === null) return fallback;
      const entity = list?.find((x) => key(x) === id);
      return entity ? nameIn(entity, lang) : fallback;
    };
  };
  const roomType = find(hotel?.roomTypes, (r) => r.id);
  const ratePlan = find(hotel?.ratePlans, (r) => r.id);
  const service = find(hotel?.services, (s) => s.id);
  const tax = find(hotel?.taxes, (t) => t.code);
  return {
    hotel: (fallback: string) => (hotel && lang ? nameIn(hotel, lang) : fallback),
    roomType: <T extends Named>(r: T): T => ({ ...r, name: roomType(r.id, r.name) }),
    ratePlan: <T extends Named>(r: T): T => ({ ...r, name: ratePlan(r.id, r.name) }),
    service: <T extends Named>(s: T): T => ({ ...s, name: service(s.id, s.name) }),
    tax: <T extends { code: string; name: string }>(x: T): T => ({ ...x, name: tax(x.code, x.name) }),
    line: <T extends Line>(l: T): T => {
      if (l.type === 'room') return { ...l, name: roomType(l.code, l.name) };
      if (l.type === 'service') return { ...l, name: service(l.code, l.name) };
      // A promotion's name is one text, kept as it was when the stay was priced.
      if (l.type === 'discount') return l;
      return { ...l, name: tax(l.code, l.name) };
    },
  };
}
