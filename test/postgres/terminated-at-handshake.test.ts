/**
 * Issue 32.12: the database ends a connection it has just opened (`pg_terminate_backend` by a
 * failover, a pooler restart or an operator). When its FATAL 57P01 arrives in the same packet as
 * the end of the handshake, the driver emits 'error' before the pool hands the connection out, with
 * no listener attached: the process used to exit (`Unhandled 'error' event`). A relay the test
 * controls plays it deterministically: once armed, every new connection gets the server's real
 * handshake and, in the same write, the FATAL the server sends when its backend is terminated.
 * The service must stay up, answer 503 `database_unavailable` with Retry-After, and recover.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import { daysFromNow, makeHotel } from '../helpers/test-app.ts';
import {
  DATABASE_URL,
  databaseUrlVia,
  eventually,
  http,
  needsPostgres,
  newEncryptionKey,
  sleep,
  startService,
  writeCatalog,
} from './support.ts';

/** The ErrorResponse PostgreSQL sends to a backend `pg_terminate_backend` ends. */
function terminationMessage(): Buffer {
  const fields = [
    ['S', 'FATAL'],
    ['V', 'FATAL'],
    ['C', '57P01'],
    ['M', 'terminating connection due to administrator command'],
  ];
  const body = Buffer.concat([
    ...fields.map(([code, text]) => Buffer.from(`${code}${text}\0`, 'utf8')),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head.write('E', 0, 'ascii');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** Where the first ReadyForQuery ('Z') of a server's byte stream ends, or -1 if not yet received. */
function endOfHandshake(data: Buffer): number {
  let offset = 0;
  while (offset + 5 <= data.length) {
    const end = offset + 1 + data.readInt32BE(offset + 1);
    if (end > data.length) return -1;
    if (data[offset] === 0x5a) return end;
    offset = end;
  }
  return -1;
}

/** A relay to PostgreSQL which, once `armed`, terminates every new connection at its handshake. */
class HandshakeTerminator {
  armed = false;
  terminated = 0;
  readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((inbound) => this.relay(inbound));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Ends every connection open now (the service's pool must open new ones). */
  dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private relay(inbound: net.Socket) {
    const outbound = net.connect(this.target.port, this.target.host);
    for (const socket of [inbound, outbound]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
    inbound.pipe(outbound);
    if (!this.armed) {
      outbound.pipe(inbound);
      return;
    }
    let received = Buffer.alloc(0);
    outbound.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = endOfHandshake(received);
      if (end < 0) return;
      outbound.removeAllListeners('data');
      outbound.destroy();
      this.terminated++;
      // The end of the handshake and the FATAL in one write: one packet on the loopback.
      inbound.end(Buffer.concat([received.subarray(0, end), terminationMessage()]));
    });
  }
}

describe('PostgreSQL ending connections as they open', () => {
  test('the process stays up, answers 503 with Retry-After, and recovers', {
    skip: needsPostgres,
  }, async () => {
    const target = new URL(DATABASE_URL as string);
    const relay = new HandshakeTerminator({ host: target.hostname, port: Number(target.port || 5432) });
    const port = await relay.listen();
    const hotel = makeHotel();
    const service = await startService({
      DATABASE_URL: databaseUrlVia(port),
      DATA_ENCRYPTION_KEY: newEncryptionKey(),
      CATALOG_FILE: await writeCatalog([hotel]),
      DB_POOL_SIZE: '4',
    });
    const exited = service.exited.then((status) => status);
    try {
      const quote = () =>
        http(service.baseUrl, 'POST', '/api/v1/booking/quote', {
          hotelId: hotel.id,
          checkIn: daysFromNow(30),
          checkOut: daysFromNow(32),
          adults: 2,
          roomTypeId: 'double',
          ratePlanId: 'flex',
        });
      assert.equal((await quote()).status, 201);

      relay.armed = true;
      relay.dropAll();
      // Rounds of concurrent requests, each needing a new connection, each connection terminated.
      for (let round = 0; round < 10; round++) {
        const answers = await Promise.all([
          quote(),
          quote(),
          quote(),
          http(service.baseUrl, 'GET', '/readyz'),
        ]);
        for (const answer of answers) {
          assert.equal(answer.status, 503, JSON.stringify(answer.body));
          assert.equal(answer.body.code, 'database_unavailable');
          assert.ok(Number(answer.headers.get('retry-after')) >= 1, 'Retry-After');
        }
      }
      assert.ok(relay.terminated >= 40, `${relay.terminated} connections terminated at their handshake`);
      assert.equal(service.child.exitCode, null, 'the process is still running');

      relay.armed = false;
      await eventually('the service to recover', async () =>
        (await quote()).status === 201 ? true : undefined,
      );
      assert.equal(service.child.exitCode, null);
      assert.ok(!service.lines.some((l) => l.includes("Unhandled 'error' event")), 'no unhandled error');
    } catch (error) {
      // A process that died says why in its last lines.
      if ((await Promise.race([exited, sleep(1_000)])) !== undefined) {
        throw new Error(`the service exited:\n${service.lines.slice(-15).join('\n')}`, { cause: error });
      }
      throw error;
    } finally {
      await service.stop();
      await relay.close();
    }
  });
});
