import { FormatRegistry, Type } from '@sinclair/typebox';
import { isCalendarDate } from '../../dates/dates.ts';

/** Schemas every API shares: one definition each, so the OpenAPI document shows one of each. */

/** Registered once with the app (`app.addSchema`) and referenced as `MoneyRef` everywhere else. */
export const Money = Type.Object(
  {
    amount: Type.Integer({ description: 'integer amount in minor units (cents)', examples: [55200] }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code', examples: ['EUR'] }),
  },
  { $id: 'Money', description: 'An amount of money in integer minor units' },
);
export const MoneyRef = Type.Ref(Money);

/** A hotel-local calendar date; each use says what the date is. */
export function CalendarDate(description = 'hotel-local date YYYY-MM-DD', examples?: string[]) {
  return Type.String({ format: 'date', description, ...(examples ? { examples } : {}) });
}

/**
 * TypeBox knows no formats of its own; 'date' means a real calendar date everywhere in this
 * service (Ajv's own 'date' format checks the same for the routes). Called when the app is built
 * and before a catalogue is checked, which can happen without an app.
 */
export function registerSchemaFormats(): void {
  FormatRegistry.Set('date', isCalendarDate);
}
