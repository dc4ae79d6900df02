import Fastify from 'fastify';

/**
 * The baseline: a bare Fastify server answering a JSON POST with a small JSON body, no database,
 * no plugins. Every figure of the service is reported as a ratio to this, measured in the same run.
 */
const app = Fastify({ logger: false });
app.post('/', async (request) => ({
  ok: true,
  echo: (request.body as { hotelId?: string } | null)?.hotelId ?? null,
}));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
