import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { reloadHotel } from '../booking/helpers.ts';
import { makeHotel } from '../helpers/test-app.ts';
import { auth, OPERATOR, type OperatorApp, startOperatorApp } from '../operator-access/helpers.ts';
import { FeedServer } from './feed-server.ts';

/**
 * What the iCal tests start with: an operator app that may fetch the test's own calendar platform
 * (on 127.0.0.1, so `WEBHOOK_ALLOW_PRIVATE`), without the webhook worker, and that platform.
 */
export interface IcalBench {
  app: OperatorApp;
  platform: FeedServer;
  close(): Promise<void>;
}

export async function startIcalBench(env: Record<string, string> = {}): Promise<IcalBench> {
  const app = await startOperatorApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_WORKER: 'false', ...env });
  const platform = await FeedServer.start();
  return {
    app,
    platform,
    async close() {
      await platform.close();
      await app.t.close();
    },
  };
}

/** A hotel of its own, in the running app's catalogue at once. */
export async function freshHotel(app: OperatorApp, overrides: Partial<HotelDef> = {}): Promise<HotelDef> {
  const def = makeHotel(overrides);
  await reloadHotel(app.t, def);
  return def;
}

/** The operator API called with the app's root key: `call('POST', '/hotels/h/ical-imports', body)`. */
export const operatorCalls =
  (app: OperatorApp) => (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: unknown) =>
    app.t.inject({
      method,
      url: `${OPERATOR}${url}`,
      headers: auth(app.root),
      ...(payload ? { payload: payload as object } : {}),
    });
