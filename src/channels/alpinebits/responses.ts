import { buildXml } from './xml.ts';

/** What an action answers: the HTTP status and the XML document (docs/api.md §9.2). */
export interface ActionResult {
  status: number;
  xml: string;
}

/**
 * OTA error codes AlpineBits servers use in `Error@Code` (OTA code list ERR): the text says what
 * went wrong, the code lets a client sort errors without reading it.
 */
export const ERROR_CODES = {
  /** An unknown hotel, or one outside the key's hotels. */
  invalidHotel: 392,
  /** An unknown room type (`InvTypeCode`). */
  invalidRoomType: 402,
  /** Fewer rooms than are already sold. */
  noAvailability: 322,
  /** Anything else the server cannot process as sent. */
  unableToProcess: 450,
} as const;

/**
 * The error outcome (AlpineBits appendix A): `Errors` with one `Error` of type 13 (application
 * error) per problem; the request was transported and understood, so HTTP says 200.
 */
export function errorOutcome(
  root: string,
  errors: Array<{ code: number; text: string }>,
  version?: string,
): ActionResult {
  return {
    status: 200,
    xml: buildXml(
      root,
      {
        Errors: {
          Error: errors.map((e) => ({ '@_Type': '13', '@_Code': String(e.code), '#text': e.text })),
        },
      },
      version,
    ),
  };
}

/** The success outcome: an empty `Success`, then the action's content (`version`: the message's OTA version, `1.000` unless given). */
export function successOutcome(
  root: string,
  content: Record<string, unknown> = {},
  version?: string,
): ActionResult {
  return { status: 200, xml: buildXml(root, { Success: '', ...content }, version) };
}
