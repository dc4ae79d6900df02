import { Type } from '@sinclair/typebox';
import { CheckinProgress } from '../checkin/checkin.schemas.ts';
import { MoneyRef } from '../infra/http/common-schemas.ts';
import { OperatorHeaders } from '../operator-access/operator.docs.ts';
import { OperatorReservation } from '../reservations/reservation.schemas.ts';

/** What cancelling (or marking a no-show) now would charge, for the desk to confirm. */
export const CancellationCharge = Type.Union(
  [
    Type.Object({
      fee: MoneyRef,
      refund: MoneyRef,
      due: MoneyRef,
    }),
    Type.Null(),
  ],
  {
    description:
      'What cancelling now would charge, by the reservation’s cancellation policy (docs/api.md §2.5) at the time of this read: `fee` (before a waiver), `refund` of what was paid beyond it, `due` of the fee still unpaid. A no-show, possible only after the free-cancellation moment, costs the same. `null` when the reservation cannot be cancelled (cancelled already, or the guest has arrived).',
  },
);

/** GET: the operator object of API.md 7.2 with the check-in's progress in place of its status. */
export const OperatorReservationDetail = Type.Object(
  { ...OperatorReservation.properties, checkin: CheckinProgress, cancellationCharge: CancellationCharge },
  {
    title: 'OperatorReservationDetail',
    description:
      'The reservation as the hotel sees it, with its check-in progress and what cancelling it now would charge; header ETag carries its version',
  },
);

/** Headers of an operator change to a reservation: the key, `Idempotency-Key` and `If-Match`. */
export const OperatorChangeHeaders = Type.Object({
  ...OperatorHeaders.properties,
  'if-match': Type.Optional(
    Type.String({ description: 'ETag of the version you read; a stale one answers 412' }),
  ),
});
