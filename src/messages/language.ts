import { LANGUAGES, type Language } from './message-kinds.ts';

const isLanguage = (tag: string): tag is Language => (LANGUAGES as readonly string[]).includes(tag);

/**
 * The guest's language from a request's `Accept-Language` (RFC 9110 12.5.4): the supported
 * language with the highest weight, by its primary subtag (`pt-BR` is `pt`); `en` when none is.
 */
export function languageFromAcceptLanguage(header: string | undefined): Language {
  if (!header) return 'en';
  let best: { language: Language; q: number; order: number } | null = null;
  header.split(',').forEach((part, order) => {
    const [range = '', ...params] = part.trim().split(';');
    const primary = range.trim().toLowerCase().split('-')[0] ?? '';
    if (!isLanguage(primary)) return;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) return;
    if (!best || q > best.q || (q === best.q && order < best.order)) best = { language: primary, q, order };
  });
  return (best as { language: Language } | null)?.language ?? 'en';
}

/** The language a reservation's messages are written in: its guest's (API.md 10), else English. */
export function languageOfGuest(guest: { language?: string }): Language {
  return guest.language && isLanguage(guest.language) ? guest.language : 'en';
}
