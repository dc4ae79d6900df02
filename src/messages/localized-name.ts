import type { Language } from './message-kinds.ts';

/**
 * A catalogue entity's name in `language`: its per-language name when the catalogue gives one,
 * else its plain name. Stand-in for catalog/localized-name.ts's `nameIn` (per-language catalogue
 * names, API.md 9), which replaces it once that lands; typed loosely so it reads either shape.
 */
export function nameIn(entity: { name: unknown; names?: unknown }, language: Language): string {
  const names = entity.names as Partial<Record<Language, string>> | undefined;
  const plain = entity.name;
  if (typeof plain === 'object' && plain !== null) {
    const byLanguage = plain as Partial<Record<Language, string>>;
    return byLanguage[language] ?? byLanguage.en ?? Object.values(byLanguage)[0] ?? '';
  }
  return names?.[language] ?? String(plain);
}
