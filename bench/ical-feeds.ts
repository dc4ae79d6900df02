import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dayFromNow } from './catalog.ts';

/** Events per feed: 1–7 nights each, spread over the next 480 days. */
export const FEED_EVENTS = 100;

/** Feed `k`: FEED_EVENTS events of 1–7 nights spread over the next 480 days, UIDs of its own. */
export function feed(k: number): string {
  const d = (day: number) => dayFromNow(day).replaceAll('-', '');
  const events = Array.from({ length: FEED_EVENTS }, (_, i) => {
    const start = 2 + ((i * 97 + k * 13) % 470);
    return [
      'BEGIN:VEVENT',
      `UID:bench-${k}-${i}@platform.example`,
      'DTSTAMP:20260101T000000Z',
      `DTSTART;VALUE=DATE:${d(start)}`,
      `DTEND;VALUE=DATE:${d(start + 1 + (i % 7))}`,
      'SUMMARY:Reserved',
      'END:VEVENT',
    ].join('\r\n');
  });
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Bench//EN', ...events, 'END:VCALENDAR', ''].join(
    '\r\n',
  );
}

/** A local platform serving `/feed-<k>.ics` for every k (the iCal imports' source). */
export async function feedServer(): Promise<{ base: string; close(): void }> {
  const server = http.createServer((req, res) => {
    const k = Number(/\/feed-(\d+)\.ics$/.exec(req.url ?? '')?.[1] ?? -1);
    res.writeHead(k >= 0 ? 200 : 404, { 'content-type': 'text/calendar' });
    res.end(k >= 0 ? feed(k) : '');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
