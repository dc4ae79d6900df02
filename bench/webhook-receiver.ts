import { createServer } from 'node:http';

/** A local receiver answering every delivery 204 at once, and the endpoint that points at it. */
export async function subscribeWebhook(url: string, key: string) {
  let delivered = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as { port: number };
  const res = await fetch(`${url}/api/v1/operator/webhook-endpoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events: ['reservation.*'] }),
  });
  const created = { status: res.status, body: (await res.json()) as Record<string, unknown> };
  if (created.status !== 201)
    throw new Error(`webhook endpoint not created: ${JSON.stringify(created.body)}`);
  return {
    delivered: () => delivered,
    async close() {
      await fetch(`${url}/api/v1/operator/webhook-endpoints/${created.body.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}` },
      });
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    },
  };
}
