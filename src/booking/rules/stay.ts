/**
 * A stay as a guest asks for it, the part every rule shares: hotel-local dates (check-out
 * exclusive), the party and the extras. Search, pricing and validation each add what they need.
 */
export interface Stay {
  checkIn: string;
  checkOut: string;
  adults: number;
  /** Ages. */
  children: number[];
  rooms: number;
  /** Service ids; a repeated id is counted once. */
  services: string[];
}
