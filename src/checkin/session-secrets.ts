import type { StepName } from './steps/index.ts';

/** The AAD of a session's encrypted public id: binds it to its reservation. */
export const tokenContext = (reservationId: number) => `checkin-session-id:${reservationId}`;

/** The AAD of a step's ciphertexts: binds each to its session, step and column. */
export const stepContext = (sessionId: number, step: StepName, part: 'secret' | 'attachment') =>
  `checkin-step:${sessionId}:${step}:${part}`;
