import type { ServerResponse } from 'node:http';
import { ConfigError, loadConfig } from './config.ts';
import { type DataDirLock, DataDirLockedError, lockDataDir } from './infra/db/data-dir-lock.ts';
import { type ConnectionDrain, trackConnections } from './infra/http/connection-drain.ts';
import { createLogger } from './infra/logger.ts';
import type { Runtime } from './runtime.ts';

/** Boots the service: config, runtime, listen; SIGTERM lets in-flight requests finish, then exits 0. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  // The embedded DATA_DIR is taken first and handed to the runtime, so a start beside a running one
  // (or the losers of several racing for a stale lock) is refused before the rest loads.
  let dataDirLock: DataDirLock | undefined;
  try {
    if (!config.databaseUrl) dataDirLock = await lockDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      logger.fatal(error.message);
      process.exit(error.exitCode);
    }
    logger.fatal({ err: error }, 'start-up failed: DATA_DIR could not be locked');
    process.exit(1);
  }
  // The rest of the service loads only now: a start refused above (its configuration, a DATA_DIR
  // in use) takes a tenth of a second instead of the second the whole module graph takes to load.
  const [{ createRuntime }, { CatalogError }] = await Promise.all([
    import('./runtime.ts'),
    import('./catalog/catalog.validate.ts'),
  ]);
  let runtime: Runtime | undefined;
  let stopping = false;
  /** A signal that arrived during start-up: honoured as soon as there is something to close. */
  let pendingSignal: string | undefined;
  /** Responses not yet finished: those still being worked on when shutdown starts. */
  const inFlight = new Set<ServerResponse>();
  let drain: ConnectionDrain | undefined;
  /**
   * The one way the service ends once it has started (a signal: exit 0; a failed listen: exit 1):
   * stop listening, let in-flight requests finish, stop the workers and drain the database pool
   * (`runtime.close()`), then exit, or exit 1 if that takes longer than 25 s or fails.
   */
  const shutDown = async (reason: string, code: number) => {
    if (!runtime) {
      pendingSignal ??= reason;
      return;
    }
    if (stopping) return;
    stopping = true;
    logger.info({ reason, inFlight: inFlight.size }, 'shutting down: finishing in-flight requests');
    // A keep-alive connection busy when shutdown starts (a load balancer's) would stay open after
    // its response and hold the process until the force timeout.
    for (const response of inFlight) if (!response.headersSent) response.setHeader('connection', 'close');
    // Idle keep-alive connections are closed once quiet, not reset while a client may be sending.
    drain?.begin();
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, 25_000);
    force.unref();
    try {
      // The listener closes first, once the connections the kernel queued are accepted (never
      // reset), and before the app answers 503 with `Connection: close` to keep-alive clients.
      await drain?.stopAccepting();
      await runtime.close();
      logger.info('stopped');
      process.exit(code);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  const stop = (signal: string) => shutDown(signal, 0);
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  try {
    runtime = await createRuntime(config, logger, { dataDirLock });
  } catch (error) {
    if (error instanceof CatalogError) {
      logger.fatal(`catalogue refused: ${error.message}`);
      process.exit(78);
    }
    logger.fatal({ err: error }, 'start-up failed');
    process.exit(1);
  }
  if (pendingSignal) return stop(pendingSignal);
  drain = trackConnections(runtime.app.server);
  runtime.app.server.on('request', (_request, response: ServerResponse) => {
    inFlight.add(response);
    response.on('close', () => inFlight.delete(response));
  });
  let address: string;
  try {
    address = await runtime.app.listen({ port: config.port, host: config.host });
  } catch (error) {
    logger.fatal({ err: error }, 'could not listen');
    return shutDown('could not listen', 1);
  }
  logger.info(
    { address, port: (runtime.app.server.address() as { port: number }).port },
    `listening on ${address}`,
  );
}

await main();
