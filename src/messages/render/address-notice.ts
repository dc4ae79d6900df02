import type { Hotel } from '../../catalog/catalog.schema.ts';
import { nameIn } from '../../catalog/localized-name.ts';
import type { Language } from '../message-kinds.ts';
import { htmlOf, textOf } from './layout.ts';
import type { Section } from './sections.ts';
import { fill, TEXTS } from './texts.ts';

/**
 * The notice to the address a reservation's e-mail was changed from (a `booking_modified` to the
 * previous address, API.md 10): where its messages go now (masked), and whom to tell if that was
 * not the guest's doing. Nothing else: no stay, no price, no name typed by whoever made the change,
 * no calendar file.
 */
export function renderAddressNotice(m: {
  language: Language;
  hotel: Hotel;
  code: string;
  newAddress: string;
}): { subject: string; text: string; html: string; calendar: null } {
  const texts = TEXTS[m.language].addressNotice;
  const hotel = nameIn(m.hotel, m.language);
  const values = { hotel, code: m.code, address: m.newAddress };
  const subject = fill(texts.subject, values);
  const footer = fill(m.hotel.email ? TEXTS[m.language].replyNote : TEXTS[m.language].noReplyNote, values);
  const sections: Section[] = [
    { paragraphs: [texts.greeting, fill(texts.intro, values), fill(texts.warning, values)] },
    { notes: [footer] },
  ];
  return {
    subject,
    text: textOf(subject, sections),
    html: htmlOf({ language: m.language, title: subject, heading: subject, sections, jsonLd: null }),
    calendar: null,
  };
}
