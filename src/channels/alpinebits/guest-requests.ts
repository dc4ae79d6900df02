import type { AppContext } from '../../context.ts';
import { XmlRefused } from '../../infra/xml/safe-xml.ts';
import { type AckOwner, acksRepository } from './acks.repository.ts';
import type { ActionDefinition, ActionInput } from './action.ts';
import { hotelOf, Refusal } from './free-rooms.ts';
import { hotelReservation } from './reservation-xml.ts';
import { type ActionResult, errorOutcome, successOutcome } from './responses.ts';
import { attr, children, parseXml, type XmlNode } from './xml.ts';

/** Acknowledgements belong to the key and the client id together (API.md 11.2). */
const ownerOf = (input: ActionInput): AckOwner => ({ keyId: input.auth.keyId, clientId: input.clientId });

/** Parses the request, or answers why not (400 `ERROR:…`, as for any request the server cannot read). */
function read(input: ActionInput, expected: string): { node: XmlNode } | ActionResult {
  try {
    const { root, node } = parseXml(input.xml);
    if (root !== expected) {
      return { status: 400, xml: `ERROR:the request of this action must be an ${expected}, not ${root}` };
    }
    return { node };
  } catch (error) {
    if (error instanceof XmlRefused) return { status: 400, xml: `ERROR:${error.message}` };
    throw error;
  }
}

/**
 * `OTA_Read:GuestRequests` (AlpineBits 4.2.1–4.2.2; docs/api.md §9.2): the hotel's reservations created,
 * modified or cancelled and not yet acknowledged by this key and client id, as `OTA_ResRetrieveRS` (at most
 * 100 a time; `SelectionCriteria Start` limits them to changes from then). The versions sent are
 * remembered, so the acknowledgement covers exactly what the client received.
 */
async function readGuestRequests(ctx: AppContext, input: ActionInput): Promise<ActionResult> {
  const parsed = read(input, 'OTA_ReadRQ');
  if ('status' in parsed) return parsed;
  const request = children(children(parsed.node, 'ReadRequests')[0], 'HotelReadRequest')[0];
  try {
    const hotel = hotelOf(ctx, input, attr(request, 'HotelCode'));
    const start = attr(children(request, 'SelectionCriteria')[0], 'Start');
    const since = start ? new Date(start) : null;
    if (since && Number.isNaN(since.getTime()))
      throw new Refusal(450, 'SelectionCriteria Start is not a date-time');
    const pending = await ctx.db.transaction(async (tx) => {
      const rows = await acksRepository.pending(tx, ownerOf(input), hotel.id, since);
      await acksRepository.sent(
        tx,
        ownerOf(input),
        hotel.id,
        rows.map((p) => p.row),
      );
      return rows;
    });
    return successOutcome('OTA_ResRetrieveRS', {
      ReservationsList: {
        HotelReservation: pending.map((p) => hotelReservation(p.row, hotel, p.ackedVersion !== null)),
      },
    });
  } catch (error) {
    if (error instanceof Refusal)
      return errorOutcome('OTA_ResRetrieveRS', [{ code: error.code, text: error.message }]);
    throw error;
  }
}

/**
 * `OTA_NotifReport:GuestRequests` (AlpineBits 4.2.3–4.2.4): acknowledges reservations by their
 * `UniqueID` (the confirmation code): not sent to this key and client id again until they change
 * (another key's acknowledgement, whatever client id it sends, hides nothing from this one). An id
 * that is unknown (or of another key's hotel) is named in a warning; the others are acknowledged.
 */
async function acknowledge(ctx: AppContext, input: ActionInput): Promise<ActionResult> {
  const parsed = read(input, 'OTA_NotifReportRQ');
  if ('status' in parsed) return parsed;
  const reports = children(
    children(children(parsed.node, 'NotifDetails')[0], 'HotelNotifReport')[0],
    'HotelReservations',
  );
  const ids = children(reports[0], 'HotelReservation')
    .map((h: XmlNode) => attr(children(h, 'UniqueID')[0], 'ID'))
    .filter((id): id is string => typeof id === 'string' && id.length > 0);
  const found =
    ids.length === 0
      ? []
      : await ctx.db.transaction((tx) =>
          acksRepository.acknowledge(tx, ownerOf(input), ids, input.auth.hotelIds),
        );
  const unknown = ids.filter((id) => !found.includes(id));
  return successOutcome(
    'OTA_NotifReportRS',
    unknown.length > 0
      ? {
          Warnings: {
            Warning: unknown.map((id) => ({
              '@_Type': '11',
              '@_RecordID': id,
              '#text': `no reservation ${id}`,
            })),
          },
        }
      : {},
  );
}

export const readGuestRequestsAction: ActionDefinition = {
  action: 'OTA_Read:GuestRequests',
  handshakeName: 'action_OTA_Read',
  capabilities: [],
  scope: 'reservations:read',
  handle: readGuestRequests,
};

/** Acknowledgements go with reading: the handshake's `action_OTA_Read` covers both. */
export const acknowledgeAction: ActionDefinition = {
  action: 'OTA_NotifReport:GuestRequests',
  handshakeName: null,
  capabilities: [],
  scope: 'reservations:read',
  handle: acknowledge,
};
