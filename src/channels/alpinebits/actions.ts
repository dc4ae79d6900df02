import type { ActionDefinition } from './action.ts';
import { freeRoomsAction } from './free-rooms.ts';
import { acknowledgeAction, readGuestRequestsAction } from './guest-requests.ts';
import { handshakeAction } from './handshake.ts';
import { handleRatePlanNotif, RATE_PLAN_NOTIF_ACTION } from './rate-plans.ts';

/**
 * The AlpineBits actions this server answers (docs/api.md §9.2), in one registry: the endpoint
 * (`server.ts`) dispatches on `action`, and the handshake advertises every action listed here with
 * its capabilities. To add one, write its handler and add a line to ACTIONS.
 */

export type { ActionDefinition, ActionHandler, ActionInput, AlpineBitsAuthority } from './action.ts';
export { ALPINEBITS_VERSION } from './action.ts';

export const ACTIONS: ActionDefinition[] = [
  handshakeAction(() => ACTIONS),
  freeRoomsAction,
  readGuestRequestsAction,
  acknowledgeAction,
  // docs/api.md §9.3: rate plans as hotels price them (rate-plans/ owns the message and its storage).
  { ...RATE_PLAN_NOTIF_ACTION, handle: handleRatePlanNotif },
];

export const actionNamed = (action: string): ActionDefinition | undefined =>
  ACTIONS.find((a) => a.action === action);
