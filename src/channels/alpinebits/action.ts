import type { RequestContext } from '../../context.ts';
import type { ActionResult } from './responses.ts';

/** The shape of an AlpineBits action (docs/api.md §9.2); the registry of them is actions.ts. */

/** The operator key a request authenticated with (its password): id, scopes and hotels (`null`: all). */
export interface AlpineBitsAuthority {
  keyId: string;
  scopes: readonly string[];
  hotelIds: readonly string[] | null;
}

export interface ActionInput {
  /** The `request` field: the OTA document, not yet parsed (empty for actions without one). */
  xml: string;
  /** `X-AlpineBits-ClientID` (the key's id when the client sends none). */
  clientId: string;
  auth: AlpineBitsAuthority;
}

/**
 * A handler: parses `xml` (with `parseXml` of xml.ts, which refuses DTDs and entities), checks the
 * hotel against `auth.hotelIds`, does its work in its own transaction, and answers the response
 * document (`successOutcome` / `errorOutcome` of responses.ts, valid against the 2022-10 schema).
 * A request the handler cannot read at all may answer `{ status: 400, xml: 'ERROR:…' }`. `ctx` is
 * the request's: what a channel changes is audited as its act (API.md 12).
 */
export type ActionHandler = (ctx: RequestContext, input: ActionInput) => Promise<ActionResult>;

export interface ActionDefinition {
  /** The `action` form field, e.g. `OTA_HotelInvCountNotif:FreeRooms`. */
  action: string;
  /** Its name in the handshake (`action_OTA_HotelInvCountNotif`); `null`: implied by another one. */
  handshakeName: string | null;
  /** Capabilities advertised with it in the handshake. */
  capabilities: readonly string[];
  /** The operator key scope it needs (docs/api.md §9.2); `any` for the handshake. */
  scope: 'any' | 'inventory:write' | 'reservations:read';
  handle: ActionHandler;
}

/** The AlpineBits version this server speaks. */
export const ALPINEBITS_VERSION = '2022-10';
