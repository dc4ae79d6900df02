import { ConfigError, loadConfig } from './config.ts';
import { CatalogError } from './catalog/catalog.validate.ts';
import { createLogger } from './infra/logger.ts';
import { createRuntime } from './runtime.ts';

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
  let runtime: Awaited<ReturnType<typeof createRuntime>>;
  try {
    runtime = await createRuntime(config, logger);
  } catch (error) {
    if (error instanceof CatalogError) {
      logger.fatal(`catalogue refused: ${error.message}`);
      process.exit(78);
    }
    logger.fatal({ err: error }, 'start-up failed');
    process.exit(1);
  }
  const address = await runtime.app.listen({ port: config.port, host: config.host });
  logger.info({ address, port: (runtime.app.server.address() as { port: number }).port }, `listening on ${address}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, 25_000);
    force.unref();
    try {
      await runtime.close();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

await main();
