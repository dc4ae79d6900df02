import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionDrainOptions {
  /** How long a connection must have been idle (no request, no byte received) before it is closed. */
  lingerMs?: number;
  /** How often idle connections are looked for during shutdown. */
  pollMs?: number;
  /** A connection whose client does not close its side after ours is destroyed after this long. */
  closeTimeoutMs?: number;
  /** The listening socket closes once no connection was accepted for this long... */
  acceptQuietMs?: number;
  /** ...or once shutdown has been accepting for this long, whichever comes first. */
  acceptAtMostMs?: number;
}

export interface ConnectionDrain {
  /**
   * Call before closing the server: from then on idle keep-alive connections are not reset at once
   * but closed once idle for `lingerMs`; busy ones close after their response (`Connection: close`);
   * and `server.close()` stops listening only once the connections the kernel queued are accepted.
   */
  begin(): void;
  /**
   * Stops listening once the connections the kernel queued are accepted (see `closeOnceAccepted`);
   * resolves then. The app's own `server.close()` afterwards only waits for connections to end.
   */
  stopAccepting(): Promise<void>;
}

interface Tracked {
  /** Requests on this connection not yet answered. */
  active: number;
  /** When a request last ended, or a byte last arrived, on this connection. */
  lastActive: number;
  bytesRead: number;
}

/**
 * Graceful closing of keep-alive connections. Node's `server.close()` calls
 * `closeIdleConnections()`, which destroys every connection with no request in progress: a client
 * that was sending its next request on one at that moment gets ECONNRESET (40 of 2,900 requests
 * under load). HTTP/1.1 cannot tell an idle connection to stop; it can only answer the next request
 * with `Connection: close` (Fastify's 503 while closing). So during shutdown a connection is closed
 * by the server only after it has been quiet for `lingerMs` (no request in progress, and no byte
 * received, so a request still arriving is never cut); a client busy on it gets its answer and
 * `Connection: close` first. The same race is left as for any keep-alive timeout: a client that
 * was silent for `lingerMs` and sends at the very moment its connection is closed.
 */
export function trackConnections(server: Server, options: ConnectionDrainOptions = {}): ConnectionDrain {
  const lingerMs = options.lingerMs ?? 1000;
  const pollMs = options.pollMs ?? 100;
  const closeTimeoutMs = options.closeTimeoutMs ?? 2000;
  const acceptQuietMs = options.acceptQuietMs ?? 100;
  const acceptAtMostMs = options.acceptAtMostMs ?? 3000;
  const connections = new Map<Socket, Tracked>();
  let lastAccepted = 0;
  server.on('connection', (socket: Socket) => {
    lastAccepted = Date.now();
    connections.set(socket, { active: 0, lastActive: Date.now(), bytesRead: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request, response) => {
    const tracked = connections.get(request.socket);
    if (!tracked) return;
    tracked.active++;
    response.once('close', () => {
      tracked.active--;
      tracked.lastActive = Date.now();
    });
  });

  const closeQuiet = () => {
    const now = Date.now();
    for (const [socket, tracked] of connections) {
      // `bytesRead` counts what the socket received even though the HTTP parser consumes it
      // directly: a request whose head is still arriving has no 'request' event yet.
      if (tracked.active > 0 || socket.bytesRead !== tracked.bytesRead) {
        tracked.bytesRead = socket.bytesRead;
        tracked.lastActive = now;
        continue;
      }
      if (now - tracked.lastActive < lingerMs || socket.writableEnded) continue;
      socket.end();
      setTimeout(() => socket.destroy(), closeTimeoutMs).unref();
    }
  };

  /**
   * Runs `close` once no connection is waiting to be accepted. Closing a listening socket makes the
   * kernel reset every connection it completed but the service has not accepted yet (19 to 40
   * `ECONNRESET` per shutdown under load, clients that never reached the service). So the listener
   * stays open, every connection it has queued is accepted and answered, and it closes once none
   * was accepted for `acceptQuietMs`, or after `acceptAtMostMs` (clients that never stop opening
   * connections). The check runs in the event loop's check phase, just after its poll phase
   * accepted whatever the kernel held: a loop busy for longer than the quiet period accepts first.
   * Keep-alive connections stay open meanwhile (no `Connection: close` yet), so their clients do
   * not open new ones; those that do once the app answers `503` are refused, not reset.
   */
  const closeOnceAccepted = (close: () => void) => {
    const started = Date.now();
    const check = () => {
      setImmediate(() => {
        const now = Date.now();
        if (now - lastAccepted >= acceptQuietMs || now - started >= acceptAtMostMs) close();
        else setTimeout(check, pollMs).unref();
      });
    };
    check();
  };

  const listenerClose = server.close.bind(server);
  let stopped: Promise<void> | undefined;
  let closed = false;
  server.once('close', () => {
    closed = true;
  });
  const stopAccepting = () => {
    stopped ??= new Promise<void>((resolve) =>
      closeOnceAccepted(() => {
        listenerClose();
        resolve();
      }),
    );
    return stopped;
  };

  return {
    stopAccepting,
    begin() {
      // Replaces the instance's method, which server.close() calls (Node ≥ 19): idle connections
      // are closed by closeQuiet instead, once quiet. The server's close callback still waits
      // for every connection to end.
      server.closeIdleConnections = () => {};
      // Replaces the instance's close, which the app calls as it closes: the listener closes as
      // `stopAccepting` says, and the callback comes once every connection has ended ('close').
      server.close = ((callback?: (error?: Error) => void) => {
        void stopAccepting();
        if (callback) {
          if (closed) process.nextTick(callback);
          else server.once('close', () => callback());
        }
        return server;
      }) as Server['close'];
      const timer = setInterval(() => {
        closeQuiet();
        if (!server.listening && connections.size === 0) clearInterval(timer);
      }, pollMs);
      timer.unref();
    },
  };
}
