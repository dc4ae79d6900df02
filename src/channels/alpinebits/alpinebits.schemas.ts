import { Type } from '@sinclair/typebox';
import { ACTIONS } from './actions.ts';

/** The largest `request` accepted: rate plans of a big hotel run to a few megabytes. */
export const MAX_REQUEST_BYTES = 5 * 1024 * 1024;

/**
 * Not blank, no U+0000 (no XML document holds either). One class run each side of the one
 * character that is not white space, so a document of megabytes is checked in one pass.
 */
const REQUEST_PATTERN = '^[^\\u0000]*[^\\u0000\\s][^\\u0000]*$';

/**
 * The multipart form of `POST /api/v1/alpinebits` (AlpineBits 2: fields `action` and `request`,
 * both required, no other field). What no schema can say (the version header a non-handshake
 * action needs, the key's scope for the action, the message fitting the action) is in the
 * operation's description.
 */
export const AlpineBitsForm = Type.Object(
  {
    action: Type.Unsafe<string>({
      type: 'string',
      enum: ACTIONS.map((a) => a.action),
      description: 'the AlpineBits action, e.g. `OTA_Ping:Handshaking`',
    }),
    request: Type.String({
      minLength: 1,
      maxLength: MAX_REQUEST_BYTES,
      pattern: REQUEST_PATTERN,
      description:
        'the OTA XML document of the action (a plain field or a file part): not blank, no U+0000, at most 5 MiB',
    }),
  },
  { additionalProperties: false },
);

export const AlpineBitsHeaders = Type.Object({
  'x-alpinebits-clientprotocolversion': Type.Optional(
    Type.String({ description: '`2022-10`; required for every action but `OTA_Ping:Handshaking`' }),
  ),
  'x-alpinebits-clientid': Type.Optional(
    Type.String({ description: 'the client’s id: GuestRequests are acknowledged per client id' }),
  ),
});

/** A refusal of the protocol: a text body starting `ERROR:`, never problem+json. */
export const TextAnswer = (description: string) => ({
  description,
  content: { 'text/plain': { schema: Type.String({ pattern: '^ERROR:' }) } },
});
