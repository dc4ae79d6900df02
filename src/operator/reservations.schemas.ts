import { Type } from '@sinclair/typebox';
import { CheckinProgress } from '../checkin/checkin-progress.ts';
import { OperatorReservation } from '../reservations/reservation.schemas.ts';
import { OperatorHeaders, OperatorPostHeaders } from './operator.docs.ts';

export const OperatorReservationParams = Type.Object({
  reservation: Type.String({
    minLength: 1,
    maxLength: 32,
    description: 'confirmation code',
    examples: ['R7K3M9Q2X'],
  }),
});

/** GET: the operator object of API.md 7.2 with the check-in's progress in place of its status. */
export const OperatorReservationDetail = Type.Object(
  { ...OperatorReservation.properties, checkin: CheckinProgress },
  {
    title: 'OperatorReservationDetail',
    description:
      'The reservation as the hotel sees it, with its check-in progress; header ETag carries its version',
  },
);

/** Headers of an operator change to a reservation: the key, `Idempotency-Key` and `If-Match`. */
export const OperatorChangeHeaders = Type.Object({
  ...OperatorPostHeaders.properties,
  'if-match': Type.Optional(
    Type.String({ description: 'ETag of the version you read; a stale one answers 412' }),
  ),
});

export { OperatorHeaders, OperatorReservation };
