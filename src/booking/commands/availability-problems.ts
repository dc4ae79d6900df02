import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { NightShortage } from '../../hotel-calendar/inventory.repository.ts';
import { AppError, type ProblemDetailEntry } from '../../infra/http/problems.ts';
import type { Unavailable } from '../rules/availability.ts';
import type { RestrictionViolation } from '../rules/restrictions.ts';

/** How a stay that cannot be sold is told: search's `unavailable` entries and the `409`/`422` problems. */

function restrictionFields(r: RestrictionViolation | undefined) {
  if (!r) return {};
  const { rule, minStay, maxStay, maxDaysBeforeArrival, latestArrival, maxUnpaidNights, from, to, dates } = r;
  const fields = {
    rule,
    minStay,
    maxStay,
    maxDaysBeforeArrival,
    latestArrival,
    maxUnpaidNights,
    from,
    to,
    dates,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

export function unavailableEntry(u: Unavailable) {
  return {
    roomType: { id: u.roomType.id, name: u.roomType.name },
    reason: u.reason,
    message: u.restriction?.message ?? u.message,
    ...restrictionFields(u.restriction),
  };
}

/** No offer at all: `restriction_window` when any room type is restricted, else `no_availability`. */
export function noOfferError(unavailable: Unavailable[]): AppError {
  const errors: ProblemDetailEntry[] = unavailable.map((u) => {
    const { roomType, ...rest } = unavailableEntry(u);
    return { roomTypeId: roomType.id, ...rest };
  });
  const restricted = unavailable.find((u) => u.reason === 'restricted');
  if (restricted) {
    return new AppError('restriction_window', restricted.restriction?.message ?? restricted.message, {
      errors,
    });
  }
  const detail =
    unavailable.length === 1 && unavailable[0]
      ? unavailable[0].message
      : 'No room type is available for this stay and party.';
  return new AppError('no_availability', detail, { errors });
}

/** Rooms the inventory could not give when a booking or a change took them. */
export function shortageError(hotel: Hotel, shortages: NightShortage[]): AppError {
  const first = shortages[0] as NightShortage;
  const name = hotel.roomTypes.find((r) => r.id === first.roomTypeId)?.name ?? first.roomTypeId;
  return new AppError(
    'no_availability',
    first.left === 0
      ? `No ${name} is left for ${first.night}.`
      : `Only ${first.left} ${name} ${first.left === 1 ? 'is' : 'are'} left for ${first.night}.`,
    {
      errors: [
        {
          roomTypeId: first.roomTypeId,
          reason: 'sold_out',
          message: `Not enough rooms left on ${shortages.map((s) => s.night).join(', ')}.`,
          dates: shortages.map((s) => s.night),
        },
      ],
    },
  );
}
