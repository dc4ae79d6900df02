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
  // With a real provider (docs/api.md §4): money the hotel must know about outside a booking's own flow.
  'payment.failed',
  'payment.disputed',
  'payment.refund_failed',
  'payment.voided',
  'calendar.updated',
  'channel.conflict',
  'message.failed',
  'invoice.issued',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An event as a command raises it; the outbox gives it its id, time and feed position. */
export interface NewEvent {
  type: EventType;
  hotelId: string;
  /** Never a secret: no access token, no session id, identity data masked (API.md 8.1). */
  data: Record<string, unknown>;
}

/**
 * An event type, or `prefix.*` for every type under a prefix (`reservation.*`). Answers the types
 * it stands for, or null when it names none.
 */
export function typesOfPattern(pattern: string): EventType[] | null {
  if ((EVENT_TYPES as readonly string[]).includes(pattern)) return [pattern as EventType];
  const match = /^([a-z_]+)\.\*$/.exec(pattern);
  if (!match) return null;
  const types = EVENT_TYPES.filter((t) => t.startsWith(`${match[1]}.`));
  return types.length > 0 ? types : null;
}
