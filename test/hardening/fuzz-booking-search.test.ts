import { fuzzBookingEndpoints } from './support/booking-fuzz.ts';

/**
 * Property-based fuzzing of availability search and quotes, generated from their request schemas:
 * never a 5xx, always problem+json on errors, and a rejected request never changes stored state.
 */
fuzzBookingEndpoints(['search', 'quote']);
