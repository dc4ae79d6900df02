import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Hotel } from '../catalog/catalog.schema.ts';
import { type Line, type Named, namer } from '../catalog/catalog-names.ts';
import type { AppContext } from '../context.ts';
import { withHeaders } from '../infra/http/vary.ts';
import { LANGUAGES, type Language, preferredLanguage } from '../infra/i18n/languages.ts';
import type { ReservationRow } from '../reservations/reservation.row.ts';
import { etagOf, reservationView } from '../reservations/reservation.view.ts';

/**
 * Catalogue names in the caller's language (API.md 9): search, quote, reservation and the hotel
 * endpoint answer the names of `Accept-Language`, the plain name where the catalogue gives none.
 * Reservations and quotes are stored with the plain names; they are named again on the way out,
 * by id, from the catalogue as it is now.
 */

/**
 * The language asked for, or null (no header, or none Innkeep speaks): `Accept-Language` read once,
 * here at the edge; commands are handed the language (`?? FALLBACK_LANGUAGE` where one is needed).
 */
export function requestLanguage(request: FastifyRequest): Language | null {
  return preferredLanguage(request.headers['accept-language']);
}

/** The headers of an answer holding names: its language, and that it depends on the asked one. */
export function languageHeaders(lang: Language | null): Record<string, string> {
  return { 'content-language': lang ?? 'en', vary: 'Accept-Language' };
}

/** `languageHeaders` of each answer language, made once (read only: `reply.headers` copies them). */
const LANGUAGE_HEADERS = new Map<Language | null, Readonly<Record<string, string>>>(
  [null, ...LANGUAGES].map((lang) => [lang, Object.freeze(languageHeaders(lang))]),
);

/** Sets `languageHeaders` on a reply that is sent as is. */
export function withLanguage(reply: FastifyReply, lang: Language | null): FastifyReply {
  return withHeaders(reply, LANGUAGE_HEADERS.get(lang) ?? languageHeaders(lang));
}

type PricedStay = {
  roomType: Named;
  ratePlan: Named;
  lines: Line[];
  includedTaxes: Array<{ code: string; name: string }>;
};

/** A quote or reservation with its room type, rate plan, lines and included taxes named in `lang`. */
export function namedStay<T extends PricedStay>(hotel: Hotel | undefined, stay: T, lang: Language | null): T {
  if (lang === null || !hotel) return stay;
  const names = namer(hotel, lang);
  return {
    ...stay,
    roomType: names.roomType(stay.roomType),
    ratePlan: names.ratePlan(stay.ratePlan),
    lines: stay.lines.map(names.line),
    includedTaxes: stay.includedTaxes.map(names.tax),
  };
}

/** The answer of a PATCH or cancel: the reservation as it is now, named in the caller's language. */
export const currentReservation = (ctx: AppContext, lang: Language | null) => (row: ReservationRow) => ({
  status: 200,
  headers: { etag: etagOf(row), ...languageHeaders(lang) },
  payload: namedStay(ctx.catalog.get(row.hotelId), reservationView(row), lang),
});
