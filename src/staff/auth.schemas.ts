import { Type } from '@sinclair/typebox';
import { StorableString } from '../infra/http/text-schemas.ts';
import { SCOPES } from '../operator-access/scopes.ts';
import { Email, StaffSchema } from './staff.schemas.ts';

/**
 * The bounds a schema checks (and no U+0000 nor unpaired surrogate, as every body string);
 * strength (zxcvbn) is judged by the command.
 */
const Password = (description: string) => StorableString({ minLength: 1, maxLength: 1024, description });

export const SignedIn = Type.Object(
  {
    user: StaffSchema,
    scopes: Type.Array(Type.Unsafe<string>({ type: 'string', enum: [...SCOPES] }), {
      description: 'what the person’s role grants',
    }),
    hotelIds: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'null = every hotel' }),
  },
  { title: 'SignedIn' },
);

export const Passkey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const Me = Type.Object(
  {
    user: StaffSchema,
    scopes: SignedIn.properties.scopes,
    hotelIds: SignedIn.properties.hotelIds,
    passkeys: Type.Array(Passkey),
  },
  { title: 'Me' },
);

export const SignInBody = Type.Object(
  { email: Email, password: Password('the account’s password') },
  { additionalProperties: false },
);
export const NewPasswordBody = Type.Object(
  { password: Password('12–256 characters, scoring at least 3 of 4 by zxcvbn') },
  { additionalProperties: false },
);
export const ChangePasswordBody = Type.Object(
  {
    currentPassword: Password('the password now'),
    newPassword: Password('12–256 characters, scoring at least 3 of 4 by zxcvbn'),
  },
  { additionalProperties: false },
);
export const ResetRequestBody = Type.Object({ email: Email }, { additionalProperties: false });
export const TokenParams = Type.Object({
  token: Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'the token of the e-mailed link (after `#`)',
  }),
});
