/**
 * The best of `supported` for an `Accept-Language` header (RFC 9110 12.5.4): by quality, then
 * order, a regional tag (`pt-BR`) matching its language (`pt`); `null` when none matches.
 */
export function preferredLanguage<L extends string>(
  acceptLanguage: string | undefined,
  supported: readonly L[],
): L | null {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return {
        base: tag.toLowerCase().split('-')[0] ?? '',
        quality: Number.isFinite(quality) ? quality : 0,
        index,
      };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  const found = ranked.find((entry) => (supported as readonly string[]).includes(entry.base));
  return (found?.base as L | undefined) ?? null;
}
