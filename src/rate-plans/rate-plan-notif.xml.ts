import type { LocalizedText, Weekday } from '../catalog/rate-plan.model.ts';

/** A message that cannot be applied; `message` says why in words an integrator can act on. */
export class RatePlanNotifError extends Error {
  override name = 'RatePlanNotifError';
}

// biome-ignore lint/suspicious/noExplicitAny: parsed XML is walked field by field and checked as it goes
export type Node = any;

export const fail = (message: string): never => {
  throw new RatePlanNotifError(message);
};

export const list = (node: Node): Node[] => (Array.isArray(node) ? node : node === undefined ? [] : [node]);

export function date(value: unknown, what: string): string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value))
    fail(`${what}: a date YYYY-MM-DD is required`);
  return value as string;
}

export function int(value: unknown, what: string): number {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) fail(`${what}: a whole number is required`);
  return Number(value);
}

export const bool = (value: unknown) => value === '1' || value === 'true';

/** A decimal amount of the currency's major unit in minor units; more decimals than the currency has are refused. */
export function amount(value: unknown, digits: number, what: string): number {
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value))
    fail(`${what}: a decimal amount is required`);
  const [whole, fraction = ''] = (value as string).split('.');
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > digits) fail(`${what}: ${value} has more decimals than the currency (${digits})`);
  const minor = Number(whole) * 10 ** digits + Number(trimmed.padEnd(digits, '0') || '0');
  if (!Number.isSafeInteger(minor) || minor > 100_000_000) fail(`${what}: ${value} is too large`);
  return minor;
}

const DAYS: Array<[string, Weekday]> = [
  ['Mon', 'mon'],
  ['Tue', 'tue'],
  ['Weds', 'wed'],
  ['Thur', 'thu'],
  ['Fri', 'fri'],
  ['Sat', 'sat'],
  ['Sun', 'sun'],
];

/** The days an ArrivalDaysOfWeek-like element allows (an absent attribute allows the day); undefined: all. */
export function weekdays(node: Node): Weekday[] | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const allowed = DAYS.filter(([attr]) => node[attr] === undefined || bool(node[attr])).map(([, d]) => d);
  return allowed.length === 7 ? undefined : allowed;
}

/** Min/max lengths of stay of a LengthsOfStay element. */
export function lengthsOfStay(node: Node, what: string) {
  const out: { minStay?: number; maxStay?: number; forwardMinStay?: number; forwardMaxStay?: number } = {};
  for (const los of list(node?.LengthOfStay)) {
    const time = int(los.Time, `${what} LengthOfStay Time`);
    const key = (
      {
        SetMinLOS: 'minStay',
        SetMaxLOS: 'maxStay',
        SetForwardMinStay: 'forwardMinStay',
        SetForwardMaxStay: 'forwardMaxStay',
      } as const
    )[los.MinMaxMessageType as 'SetMinLOS'];
    if (key) out[key] = time;
  }
  return out;
}

/** Texts by language of the Description elements named `name`. */
export function texts(descriptions: Node, name: string): LocalizedText | undefined {
  const out: LocalizedText = {};
  for (const d of list(descriptions)) {
    if (d.Name !== name) continue;
    for (const t of list(d.Text)) {
      const text = typeof t === 'string' ? t : t?.['#text'];
      const language = typeof t === 'object' ? (t.Language ?? 'en') : 'en';
      if (typeof text === 'string' && text.trim() !== '') out[language] = text.trim();
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The weekdays a `Rate`'s Mon…Sun attributes price: the days set to 1/true; when only 0/false
 * ones are sent, the days not named. Undefined: every day (no attribute, or all seven allowed).
 */
export function rateWeekdays(node: Node, what: string): Weekday[] | undefined {
  const given = DAYS.filter(([attr]) => node[attr] !== undefined);
  if (given.length === 0) return undefined;
  const on = given.filter(([attr]) => bool(node[attr])).map(([, d]) => d);
  const days = on.length > 0 ? on : DAYS.filter(([attr]) => node[attr] === undefined).map(([, d]) => d);
  if (days.length === 0) fail(`${what}: the rate prices no day of the week`);
  return days.length === 7 ? undefined : days;
}
