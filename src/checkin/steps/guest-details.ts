import { Type } from '@sinclair/typebox';
import { Name as TextName } from '../../infra/http/text-schemas.ts';
import { birthDateProblem, Country, countryProblem, DateOf, Name } from './fields.ts';
import { defineStep } from './step.ts';

const GuestDetailsData = Type.Object(
  {
    firstName: Name('given name', 'Ana'),
    lastName: Name("family name; need not equal the booker's", 'Silva'),
    email: Type.String({
      maxLength: 254,
      pattern: '^[^\\s@\\u0000]+@[^\\s@\\u0000]+\\.[^\\s@\\u0000]+$',
      description: 'e-mail address',
      examples: ['ana@example.com'],
    }),
    dateOfBirth: DateOf('date of birth, in the past', '1988-04-02'),
    nationality: Country('nationality'),
    phone: Type.Optional(
      Type.String({
        pattern: '^\\+?[0-9][0-9 ().-]{3,30}$',
        description: 'phone number, preferably E.164',
        examples: ['+351912345678'],
      }),
    ),
    address: Type.Optional(
      Type.Object(
        {
          line1: TextName({ maxLength: 200, examples: ['Rua das Flores 12'] }),
          city: TextName({ maxLength: 100, examples: ['Lisboa'] }),
          postalCode: TextName({ maxLength: 20, examples: ['1200-195'] }),
          country: Country('country'),
        },
        { additionalProperties: false, description: 'home address' },
      ),
    ),
    arrivalTime: Type.Optional(
      Type.String({
        pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
        description: 'expected arrival, hotel-local HH:MM',
        examples: ['16:30'],
      }),
    ),
  },
  { additionalProperties: false, description: 'The main guest' },
);

const GuestDetailsView = Type.Object(
  {
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    dateOfBirth: Type.String(),
    nationality: Type.String(),
    phone: Type.Optional(Type.String()),
    address: Type.Optional(
      Type.Object(
        { line1: Type.String(), city: Type.String(), postalCode: Type.String(), country: Type.String() },
        { additionalProperties: false },
      ),
    ),
    arrivalTime: Type.Optional(Type.String()),
  },
  { additionalProperties: false, title: 'guest_details data' },
);

/** The main guest: shown as given (nothing in it is a secret). */
export const guestDetails = defineStep({
  name: 'guest_details',
  data: GuestDetailsData,
  example: {
    firstName: 'Ana',
    lastName: 'Silva',
    email: 'ana@example.com',
    dateOfBirth: '1988-04-02',
    nationality: 'PT',
    phone: '+351912345678',
    address: { line1: 'Rua das Flores 12', city: 'Lisboa', postalCode: '1200-195', country: 'PT' },
    arrivalTime: '16:30',
  },
  views: [GuestDetailsView],
  accept(d, rules, problem) {
    const birth = birthDateProblem(d.dateOfBirth, rules.today);
    if (birth) problem('/dateOfBirth', birth);
    const nationality = countryProblem(d.nationality);
    if (nationality) problem('/nationality', nationality);
    const country = d.address ? countryProblem(d.address.country) : null;
    if (country) problem('/address/country', country);
    return { view: d, secret: null, attachment: null };
  },
});
