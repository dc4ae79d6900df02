/** The event types of API.md 8.1. */
export const EVENT_TYPES = [
  'reservation.created',
  'reservation.modified',
  'reservation.cancelled',
  'reservation.arrived',
  'reservation.departed',
  'reservation.no_show',
  'checkin.started',
  'checkin.completed',
  'payment.succeeded',
  'payment.refunded',
  'calendar.updated',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An event as a command raises it; the outbox gives it its id, time and feed position. */
export interface NewEvent {
  type: EventType;
  hotelId: string;
  /** Never a secret: no access token, no session id, identity data masked (API.md 8.1). */
  data: Record<string, unknown>;
}
