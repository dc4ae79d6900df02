import { type Static, Type } from '@sinclair/typebox';
import { Name } from '../infra/http/text-schemas.ts';
import { HotelId } from './operator.schemas.ts';
import { SCOPES, type Scope } from './scopes.ts';

export const EXAMPLE_KEY_ID = 'key_7m2k9q4xw1c8v5bn3t6h';
export const Instant = (description: string) => Type.String({ format: 'date-time', description });

export const ScopeSchema = Type.Unsafe<Scope>({
  type: 'string',
  enum: [...SCOPES],
  description: 'an operator scope (docs/api.md §7.1)',
});
export const HotelIds = Type.Union([Type.Array(HotelId), Type.Null()], {
  description: 'the hotels the key may see; `null` = every hotel',
});

export const CreateKeyBody = Type.Object(
  {
    name: Name({ maxLength: 100, description: 'who or what uses the key' }),
    scopes: Type.Array(ScopeSchema, { minItems: 1, maxItems: SCOPES.length, uniqueItems: true }),
    hotelIds: Type.Optional(
      Type.Union([Type.Array(HotelId, { minItems: 1, maxItems: 200, uniqueItems: true }), Type.Null()], {
        description: 'absent or `null` = every hotel (only a key for every hotel may create one)',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { name: 'Front desk', scopes: ['reservations:read', 'inventory:read'], hotelIds: ['harbour-view'] },
    ],
  },
);
export type CreateKeyBody = Static<typeof CreateKeyBody>;

const keyExample = {
  id: EXAMPLE_KEY_ID,
  name: 'Front desk',
  scopes: ['reservations:read', 'inventory:read'],
  hotelIds: ['harbour-view'],
  createdBy: 'bootstrap',
  createdAt: '2027-03-01T09:30:00.000Z',
  revokedAt: null,
};

export const OperatorKeySchema = Type.Object(
  {
    id: Type.String({ description: 'public key id `key_…` (not the secret)' }),
    name: Type.String(),
    scopes: Type.Array(ScopeSchema),
    hotelIds: HotelIds,
    createdBy: Type.String({ description: 'id of the key that created it, or `cli` / `bootstrap`' }),
    createdAt: Instant('when the key was created'),
    revokedAt: Type.Union([Instant('when the key was revoked'), Type.Null()]),
  },
  { title: 'OperatorKey', description: 'An operator key, never with its secret', examples: [keyExample] },
);

export const CreatedKey = Type.Object(
  {
    ...OperatorKeySchema.properties,
    key: Type.String({ description: 'the secret `ik_…`: shown only in this response; store it now' }),
  },
  {
    title: 'CreatedOperatorKey',
    examples: [{ ...keyExample, key: 'ik_3v8k2m9q4x7c1w5b6n0t8h2j4k6m8p0r2s4t6v8w0x2y4z6a8c0e' }],
  },
);

export const KeyList = Type.Object(
  { data: Type.Array(OperatorKeySchema) },
  { title: 'OperatorKeyList', examples: [{ data: [keyExample] }] },
);

export const KeyParams = Type.Object({
  id: Type.String({ maxLength: 100, description: 'the key id `key_…`', examples: [EXAMPLE_KEY_ID] }),
});
