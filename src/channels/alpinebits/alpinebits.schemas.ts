import { Type } from '@sinclair/typebox';

/** The multipart form of `POST /api/v1/alpinebits` (AlpineBits 2: fields `action` and `request`). */
export const AlpineBitsForm = Type.Object(
  {
    action: Type.Optional(Type.String({ maxLength: 200, description: 'e.g. `OTA_Ping:Handshaking`' })),
    request: Type.Optional(Type.String({ description: 'the OTA XML document of the action' })),
  },
  { additionalProperties: true },
);

export const AlpineBitsHeaders = Type.Object({
  'x-alpinebits-clientprotocolversion': Type.Optional(Type.String({ description: '`2022-10`' })),
  'x-alpinebits-clientid': Type.Optional(
    Type.String({ description: 'the client’s id: GuestRequests are acknowledged per client id' }),
  ),
});

/** A refusal of the protocol: a text body starting `ERROR:`, never problem+json. */
export const TextAnswer = (description: string) => ({
  description,
  content: { 'text/plain': { schema: Type.String({ pattern: '^ERROR:' }) } },
});
