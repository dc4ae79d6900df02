import { Type } from '@sinclair/typebox';

/** What the liveness and readiness probes answer while all is well. */
export const Status = Type.Object({ status: Type.String({ examples: ['ok'] }) });
