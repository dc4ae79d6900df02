import type { Hotel } from '../../catalog/catalog.schema.ts';
import type { AppContext } from '../../context.ts';
import { validationProblem } from '../../infra/http/problems.ts';
import { withStoredPlans } from '../../rate-plans/priced-hotel.ts';
import { ratePlanRepository } from '../../rate-plans/rate-plan.repository.ts';
import { rangeErrors } from '../calendar-update.ts';
import { calendarView } from '../calendar-view.ts';
import { channelNightsRepository } from '../channel-nights.repository.ts';
import { loadHotelNights } from '../load-hotel-nights.ts';

/** `GET …/calendar`: `400` for a range that is reversed or longer than 366 nights. */
export async function readCalendar(ctx: Pick<AppContext, 'db'>, hotel: Hotel, from: string, to: string) {
  const { db } = ctx;
  const errors = rangeErrors(from, to, '/query/to');
  if (errors.length > 0) throw validationProblem(errors);
  const priced = withStoredPlans(hotel, await ratePlanRepository.forHotel(db, hotel.id));
  const [nights, channel] = await Promise.all([
    loadHotelNights(db, priced, from, to),
    channelNightsRepository.channelNights(db, hotel.id, from, to),
  ]);
  return calendarView(nights, from, to, channel);
}
