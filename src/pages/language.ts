import { preferredLanguage } from '../infra/http/accept-language.ts';

/** The languages the pages speak; the first is the fallback. */
export const PAGE_LANGUAGES = ['en', 'es', 'pt'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

function isPageLanguage(value: string): value is PageLanguage {
  return (PAGE_LANGUAGES as readonly string[]).includes(value);
}

/**
 * The page's language: an explicit `?lang=` wins, then the best `Accept-Language` match by
 * quality (a regional tag like `pt-BR` matches `pt`), then English. The page script may still
 * switch to a choice the guest saved earlier in this browser.
 */
export function pickLanguage(queryLang: unknown, acceptLanguage: string | undefined): PageLanguage {
  if (typeof queryLang === 'string' && isPageLanguage(queryLang)) return queryLang;
  return preferredLanguage(acceptLanguage, PAGE_LANGUAGES) ?? 'en';
}
