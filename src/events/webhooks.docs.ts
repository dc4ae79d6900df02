import { EventSchema } from './webhooks.schemas.ts';

/** How a receiver checks `Innkeep-Signature` (Node), shown in the OpenAPI document and the README. */
export const VERIFY_SNIPPET = [
  "import { createHmac, timingSafeEqual } from 'node:crypto';",
  '',
  '// rawBody: the request body exactly as received (a string), before any JSON parsing.',
  'function verify(secret, header, rawBody, toleranceSeconds = 300) {',
  "  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2)));",
  '  const t = Number(parts.t);',
  '  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;',
  "  const expected = createHmac('sha256', secret).update(parts.t + '.' + rawBody).digest();",
  "  const given = Buffer.from(parts.v1 ?? '', 'hex');",
  '  return given.length === expected.length && timingSafeEqual(given, expected);',
  '}',
].join('\n');

/** The OpenAPI 3.1 `webhooks` of the document: what Innkeep POSTs to a webhook endpoint (API.md 8.2). */
export const WEBHOOKS_DOCUMENT = {
  event: {
    post: {
      operationId: 'receiveEvent',
      summary: 'An event, POSTed to each webhook endpoint subscribed to its type',
      tags: ['Operator'],
      description: [
        'Innkeep POSTs each matching event (the same object as in `GET /operator/events`) to the',
        'endpoint’s `url`. Answer `2xx` within 10 s; anything else (or no answer) is retried with',
        'backoff (about 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, then every 12 h for 3 days in all).',
        'Delivery is at least once and in no particular order: deduplicate by `Innkeep-Event-Id`.',
        'Redirects are not followed.',
        '',
        'Verify `Innkeep-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed',
        'with the endpoint’s secret, on the raw body, in constant time, and refuse an old `t`:',
        '',
        '```js',
        VERIFY_SNIPPET,
        '```',
      ].join('\n'),
      parameters: [
        {
          in: 'header',
          name: 'Innkeep-Event-Id',
          required: true,
          schema: { type: 'string' },
          description: 'the event id `evt_…` (the same in every retry)',
        },
        {
          in: 'header',
          name: 'Innkeep-Signature',
          required: true,
          schema: { type: 'string' },
          example: 't=1795440790,v1=5f2b…',
          description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the secret>`',
        },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: EventSchema } } },
      responses: {
        '2XX': { description: 'delivered' },
        default: { description: 'not delivered: tried again later' },
      },
    },
  },
};
