import { type Static, Type } from '@sinclair/typebox';
import { reservationFields } from '../reservations/reservation.schemas.ts';

/** Response schemas of the reservation routes: they validate, serialise, type and document. */

export const CreatedReservation = Type.Object(
  {
    ...reservationFields,
    accessToken: Type.String({
      description:
        'secret for PATCH and cancel (Authorization: Bearer …); returned only here, stored only hashed',
      examples: ['rat_…'],
    }),
  },
  {
    $id: 'CreatedReservation',
    description: 'The reservation, with its access token (returned only here); headers ETag and Location',
  },
);
export type CreatedReservation = Static<typeof CreatedReservation>;
