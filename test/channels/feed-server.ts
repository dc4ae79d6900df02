import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A calendar platform's export, served by the test on 127.0.0.1: its body and status can change. */
export class FeedServer {
  body = '';
  status = 200;
  requests = 0;
  private server: http.Server;
  url = '';

  private constructor() {
    this.server = http.createServer((_request, response) => {
      this.requests++;
      response.writeHead(this.status, { 'content-type': 'text/calendar; charset=utf-8' });
      response.end(this.status === 200 ? this.body : 'failing');
    });
  }

  static async start(): Promise<FeedServer> {
    const server = new FeedServer();
    server.server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    server.url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}/calendar.ics`;
    return server;
  }

  /** A feed of all-day events `[uid, first night, morning after the last]`, folded lines and CRLF. */
  events(events: Array<[string, string, string]>): void {
    const d = (date: string) => date.replaceAll('-', '');
    this.body = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test Platform//EN',
      ...events.flatMap(([uid, from, to]) => [
        'BEGIN:VEVENT',
        `UID:${uid}`,
        'DTSTAMP:20260101T000000Z',
        `DTSTART;VALUE=DATE:${d(from)}`,
        `DTEND;VALUE=DATE:${d(to)}`,
        'SUMMARY:Reserved by a guest of the platform whose name is long enough to be fo',
        ' lded over two lines',
        'END:VEVENT',
      ]),
      'END:VCALENDAR',
      '',
    ].join('\r\n');
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
