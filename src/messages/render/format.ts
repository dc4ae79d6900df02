import { minorDigits } from '../../infra/currency.ts';
import type { Texts } from './texts.ts';

/** Money in minor units as the guest's locale writes it (`552,00 €`). */
export function formatMoney(texts: Texts, money: { amount: number; currency: string }): string {
  const format = new Intl.NumberFormat(texts.locale, { style: 'currency', currency: money.currency });
  return format.format(money.amount / 10 ** minorDigits(money.currency));
}

/** A hotel-local calendar date, written out (`Monday 1 March 2027`). */
export function formatDate(texts: Texts, date: string): string {
  return new Intl.DateTimeFormat(texts.locale, { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );
}

/** An instant at the hotel, in the hotel's time zone. */
export function formatInstant(texts: Texts, instant: string, timezone: string): string {
  return new Intl.DateTimeFormat(texts.locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: timezone,
  }).format(new Date(instant));
}
