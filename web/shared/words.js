// API codes said in words: why a room type cannot be booked, how a service is priced.
import { date, list, t } from './i18n.js';

/** One `unavailable` or `errors[]` entry of a search, in a sentence of the current language. */
export function unavailableReason(entry) {
  if (entry.reason === 'restricted' && entry.rule) return restrictionRule(entry);
  return t(`reason.${entry.reason}`);
}

function restrictionRule(entry) {
  const dates = entry.dates?.length ? list(entry.dates.map((d) => date(d))) : '';
  const from = entry.from ? date(entry.from) : dates;
  switch (entry.rule) {
    case 'min_stay':
      return t('rule.min_stay', { count: entry.minStay, from });
    case 'max_stay':
      return t('rule.max_stay', { count: entry.maxStay, from });
    case 'booking_window':
      return t('rule.booking_window', {
        count: entry.maxDaysBeforeArrival,
        latest: entry.latestArrival ? date(entry.latestArrival) : '',
      });
    default:
      return t(`rule.${entry.rule}`, { dates: dates || from });
  }
}

export function servicePricing(pricing) {
  return t(`pricing.${pricing}`);
}
