import { Type } from '@sinclair/typebox';
import { Name } from '../infra/http/text-schemas.ts';
import { HotelId } from '../operator-access/operator.schemas.ts';
import { ROLES } from '../operator-access/roles.ts';

export const Email = Type.String({
  format: 'email',
  minLength: 3,
  maxLength: 254,
  examples: ['ana@example.com'],
});
export const RoleSchema = Type.Union(
  ROLES.map((r) => Type.Literal(r)),
  { description: '`owner`, `manager`, `front_desk` or `accountant` (docs/api.md §11)' },
);
const StaffHotelIds = Type.Union([Type.Array(HotelId, { maxItems: 200 }), Type.Null()], {
  description: 'the hotels the person acts for; null = every hotel',
});
const Instant = (description: string) => Type.String({ format: 'date-time', description });
const StaffName = Name({ minLength: 1, maxLength: 100, description: 'the person’s name' });

export const StaffSchema = Type.Object(
  {
    id: Type.String({ description: 'account id `usr_…`' }),
    email: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    hotelIds: StaffHotelIds,
    status: Type.Union([Type.Literal('invited'), Type.Literal('active'), Type.Literal('disabled')]),
    createdAt: Instant('when the person was invited'),
  },
  {
    title: 'StaffAccount',
    examples: [
      {
        id: 'usr_3k9q4xw1c8v5bn3t6h7m',
        email: 'ana@example.com',
        name: 'Ana López',
        role: 'front_desk',
        hotelIds: ['harbour-view'],
        status: 'invited',
        createdAt: '2027-03-01T09:30:00.000Z',
      },
    ],
  },
);

export const InviteStaffBody = Type.Object(
  {
    email: Email,
    name: StaffName,
    role: RoleSchema,
    hotelIds: Type.Optional(
      Type.Array(HotelId, { minItems: 1, maxItems: 200, description: 'absent = every hotel' }),
    ),
    language: Type.Optional(
      Type.Union([Type.Literal('en'), Type.Literal('es'), Type.Literal('pt')], {
        description: 'the language of the invitation e-mail (and later ones); default `en`',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ModifyStaffBody = Type.Object(
  {
    name: Type.Optional(StaffName),
    role: Type.Optional(RoleSchema),
    hotelIds: Type.Optional(StaffHotelIds),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')])),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const StaffList = Type.Object({ data: Type.Array(StaffSchema, { description: 'oldest first' }) });
export const StaffParams = Type.Object({
  id: Type.String({ pattern: '^usr_[0-9a-z]{1,40}$', description: '`usr_…`' }),
});
