import type { Clock } from '../infra/clock.ts';
import type { HousekeepingJob } from '../infra/housekeeping.ts';
import { staffSessionsRepository } from '../operator-access/staff-sessions.repository.ts';
import { SIGN_IN_WINDOW_SECONDS } from './commands/sign-in.ts';
import { signInFailuresRepository } from './sign-in-failures.repository.ts';
import { staffTokensRepository } from './staff-tokens.repository.ts';
import { webauthnChallengesRepository } from './webauthn-challenges.repository.ts';

/** Rows of staff/ that have outlived their purpose: ended sessions, expired links and WebAuthn challenges, ended lockout windows. */
export function staffHousekeepingJobs(clock: Clock, idleMinutes: number): HousekeepingJob[] {
  return [
    {
      name: 'staffSessions',
      run: (db) => {
        const now = clock.now();
        return staffSessionsRepository.deleteEnded(db, now, new Date(now.getTime() - idleMinutes * 60_000));
      },
    },
    { name: 'staffTokens', run: (db) => staffTokensRepository.deleteEnded(db, clock.now()) },
    { name: 'webauthnChallenges', run: (db) => webauthnChallengesRepository.deleteEnded(db, clock.now()) },
    {
      name: 'staffSignInFailures',
      run: (db) =>
        signInFailuresRepository.deleteEnded(
          db,
          new Date(clock.now().getTime() - SIGN_IN_WINDOW_SECONDS * 1000),
        ),
    },
  ];
}
