import { fuzzBookingEndpoints } from './support/booking-fuzz.ts';

/**
 * Property-based fuzzing of reservation create, change and cancel, generated from their request
 * schemas: never a 5xx, always problem+json on errors, and a rejected request never changes
 * stored state.
 */
fuzzBookingEndpoints(['reservations', 'modify', 'cancel']);
