/**
 * The languages Innkeep speaks — pages, guest e-mails and catalogue names alike (API.md 9, 10) —
 * declared once; the first is the fallback. The browser's copy is `web/shared/i18n.js`, kept equal
 * to this list by a test.
 */
export const LANGUAGES = ['en', 'es', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The one `Accept-Language` parser (RFC 9110 12.5.4), run once per request at the edge (a route);
 * commands receive the `Language`, never the header. The supported language of the highest
 * quality, then the earliest, a regional tag (`pt-BR`) matching its language (`pt`), `*` and
 * languages we do not speak ignored; `null` when none matches.
 */
export function preferredLanguage(acceptLanguage: string | undefined): Language | null {
  // Most API calls send none: no ranking to build.
  if (acceptLanguage === undefined || acceptLanguage === '') return null;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return {
        base: tag.trim().toLowerCase().split('-')[0] ?? '',
        quality: Number.isFinite(quality) ? quality : 0,
        index,
      };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  const found = ranked.find((entry) => isLanguage(entry.base));
  return (found?.base as Language | undefined) ?? null;
}

/** `preferredLanguage`, else the fallback (English). */
export function languageOfRequest(acceptLanguage: string | undefined): Language {
  return preferredLanguage(acceptLanguage) ?? FALLBACK_LANGUAGE;
}

/** A stored language (a guest's, API.md 10) if Innkeep speaks it, else the fallback. */
export function languageOr(value: unknown): Language {
  return isLanguage(value) ? value : FALLBACK_LANGUAGE;
}
