import { Type } from '@sinclair/typebox';
import { birthDateProblem, Country, countryProblem, DateOf, Name } from './fields.ts';
import { defineStep } from './step.ts';

const Companion = Type.Object(
  {
    firstName: Name('given name', 'Rui'),
    lastName: Name('family name', 'Silva'),
    dateOfBirth: DateOf('date of birth', '2018-06-14'),
    nationality: Country('nationality'),
  },
  { additionalProperties: false },
);

const CompanionsData = Type.Object(
  {
    guests: Type.Array(Companion, {
      maxItems: 200,
      description: 'everyone else staying: exactly adults + children − 1 entries',
    }),
  },
  { additionalProperties: false, description: 'The other guests of the party' },
);

const CompanionsView = Type.Object(
  {
    guests: Type.Array(
      Type.Object(
        {
          firstName: Type.String(),
          lastName: Type.String(),
          dateOfBirth: Type.String(),
          nationality: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'companions data' },
);

/** The rest of the party, one entry each; skipped for a party of one. */
export const companions = defineStep({
  name: 'companions',
  data: CompanionsData,
  example: {
    guests: [{ firstName: 'Rui', lastName: 'Silva', dateOfBirth: '2018-06-14', nationality: 'PT' }],
  },
  views: [CompanionsView],
  appliesTo: (facts) => facts.partySize > 1,
  accept(d, rules, problem) {
    const expected = rules.partySize - 1;
    if (d.guests.length !== expected) {
      problem(
        '/guests',
        `must have exactly ${expected} ${expected === 1 ? 'entry' : 'entries'} (adults + children − 1)`,
      );
    }
    d.guests.forEach((guest, i) => {
      const birth = birthDateProblem(guest.dateOfBirth, rules.today);
      if (birth) problem(`/guests/${i}/dateOfBirth`, birth);
      const nationality = countryProblem(guest.nationality);
      if (nationality) problem(`/guests/${i}/nationality`, nationality);
    });
    return { view: d, secret: null, attachment: null };
  },
});
