import { AppError } from '../../infra/http/problems.ts';
import type { CheckinContext } from './checkin-context.ts';
import { openSession } from './open-session.ts';

/**
 * The session a check-in invitation links to (API.md 10): the reservation's one session, opened by
 * the service itself when the guest has none yet. Answers its id, or null when there can be none
 * (the reservation is gone or cancelled, or its session has expired).
 */
export async function openInvitationSession(ctx: CheckinContext, code: string): Promise<string | null> {
  try {
    const { signed } = await openSession(
      ctx,
      { reservationId: code },
      { invitation: true, clientAddress: 'innkeep-invitation' },
    );
    return signed.session.id;
  } catch (error) {
    if (
      error instanceof AppError &&
      ['not_found', 'reservation_cancelled', 'session_expired'].includes(error.code)
    ) {
      return null;
    }
    throw error;
  }
}
