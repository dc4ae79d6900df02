/**
 * Reads one limit's item from a `RateLimit` or `RateLimit-Policy` header (a structured-field list:
 * `"general";r=3;t=42, "checkin-proof";r=0;t=900`), parsed independently of the service's code.
 */
export function limitItem(header: unknown, policy: string): Record<string, number> {
  const items = String(header ?? '')
    .split(',')
    .map((item) => item.trim().split(';'));
  const found = items.find(([name]) => name === `"${policy}"`);
  if (!found) throw new Error(`no "${policy}" item in ${String(header)}`);
  return Object.fromEntries(
    found.slice(1).map((param) => {
      const [key, value] = param.split('=');
      return [String(key), Number(value)];
    }),
  );
}
