// Texts, dates and money in the guest's language. Every visible string comes from
// web/i18n/<lang>.json (fetched beside this module, so under the same versioned URL); this module
// only looks them up and formats values with Intl.

export const LANGUAGES = ['en', 'es', 'pt'];
const STORAGE_KEY = 'innkeep.lang';

let current = 'en';
let currentLocale = 'en';
let texts = {};

/** Where a language is spoken in several ways and the browser names no region: the service's own. */
const DEFAULT_LOCALE = { en: 'en', es: 'es-ES', pt: 'pt-PT' };

/**
 * The locale for Intl: the page language in the region the browser asks for (its languages are
 * what it sends as Accept-Language: `pt-BR` writes `R$ 1.234,56` and `1 de mar. de 2027`,
 * `pt-PT` `1234,56 €` and `01/03/2027`), else the language's default region.
 */
function pickLocale(lang) {
  for (const tag of navigator.languages ?? []) {
    const [base, region] = tag.split('-');
    if (base?.toLowerCase() === lang && region) {
      try {
        return Intl.getCanonicalLocales(tag)[0];
      } catch {
        // a malformed tag: try the next
      }
    }
  }
  return DEFAULT_LOCALE[lang] ?? lang;
}

/** The language to start in: `?lang=`, then the guest's saved choice, then what the server chose. */
export function initialLanguage() {
  const fromQuery = new URLSearchParams(location.search).get('lang');
  if (LANGUAGES.includes(fromQuery)) return fromQuery;
  let saved = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage may be disabled; the server's choice (from Accept-Language) then stands.
  }
  if (LANGUAGES.includes(saved)) return saved;
  const fromServer = document.documentElement.lang;
  return LANGUAGES.includes(fromServer) ? fromServer : 'en';
}

export async function setLanguage(lang, { remember = false } = {}) {
  const response = await fetch(new URL(`../i18n/${lang}.json`, import.meta.url));
  texts = await response.json();
  current = lang;
  currentLocale = pickLocale(lang);
  document.documentElement.lang = lang;
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, lang);
    } catch {
      // Not remembered across visits; this page still switches.
    }
  }
}

export function language() {
  return current;
}

/** The Intl locale of the current language, e.g. `pt-BR` (see pickLocale). */
export function locale() {
  return currentLocale;
}

/** The text for `key` with `{name}` placeholders filled; `count` picks `key.one` / `key.other`. */
export function t(key, vars = {}) {
  let text = texts[key];
  if (text === undefined && typeof vars.count === 'number') {
    const rule = new Intl.PluralRules(currentLocale).select(vars.count);
    text = texts[`${key}.${rule}`] ?? texts[`${key}.other`];
  }
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

export function has(key) {
  return key in texts;
}

/** `{ amount, currency }` in minor units (the hotel's currency), as the current locale writes it. */
export function money(value) {
  const format = new Intl.NumberFormat(currentLocale, { style: 'currency', currency: value.currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(value.amount / 10 ** digits);
}

/** A calendar date `YYYY-MM-DD` (no time zone: it is the hotel's local date). */
export function date(isoDate, style = 'medium') {
  const [y, m, d] = isoDate.split('-').map(Number);
  return new Intl.DateTimeFormat(currentLocale, { dateStyle: style, timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, d)),
  );
}

/** An instant, in the hotel's time zone when known, naming the zone. */
export function instant(iso, timeZone) {
  // dateStyle cannot be combined with timeZoneName, hence the explicit fields.
  return new Intl.DateTimeFormat(currentLocale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

export function list(items) {
  return new Intl.ListFormat(currentLocale, { type: 'conjunction' }).format(items);
}
