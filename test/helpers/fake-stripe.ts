import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import Stripe from 'stripe';

/**
 * A local server answering like Stripe's API for the calls Innkeep makes (create+confirm a
 * PaymentIntent, retrieve one, create a refund), each request checked against Stripe's published
 * OpenAPI document (test/fixtures/stripe/openapi-subset.json; see its README): a parameter Stripe
 * does not know, or of the wrong type, is a violation the tests assert never happens. Test cards are
 * PaymentMethod ids as in Stripe's test mode: `pm_card_visa` pays, `pm_card_chargeDeclined` and
 * `pm_card_chargeDeclinedInsufficientFunds` are declined, `pm_card_threeDSecure2Required` needs 3-D
 * Secure (`completeAction` plays the guest finishing it in Stripe.js).
 */
const SPEC = JSON.parse(
  readFileSync(new URL('../fixtures/stripe/openapi-subset.json', import.meta.url), 'utf8'),
) as { paths: Record<string, Record<string, SpecOperation>> };
interface SpecOperation {
  parameters: { in: string; name: string; required?: boolean; schema: object }[];
  requestBody?: { content: Record<string, { schema: object }> };
}

const STAND_IN = readFileSync(new URL('./stripe-js-stand-in.js', import.meta.url), 'utf8');

const ajv = new Ajv({ coerceTypes: true, strict: false, allErrors: true });

/** Stripe's form encoding (`a[b]=1`, `expand[0]=x`) back to an object. */
export function parseStripeForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = out;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = /^\d*$/.test(parts[i + 1] ?? 'x');
      if (last && part === '' && Array.isArray(node)) (node as unknown[]).push(value);
      else if (last) node[part] = value;
      else {
        node[part] ??= nextIsIndex ? [] : {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  return out;
}

interface Intent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  payment_method: string;
  last_payment_error: null | { code: string; decline_code?: string; message: string; type: string };
  refunded: number;
  customer?: string | null;
  setup_future_usage?: string | null;
  off_session?: boolean;
}

const CARDS: Record<string, { brand: string; last4: string; decline?: string; threeDS?: boolean }> = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', decline: 'generic_decline' },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995', decline: 'insufficient_funds' },
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3220', threeDS: true },
};
const DECLINE_MESSAGES: Record<string, string> = {
  generic_decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
};

export class FakeStripe {
  readonly secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  readonly publishableKey = `pk_test_${randomBytes(12).toString('hex')}`;
  readonly webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  readonly intents = new Map<string, Intent>();
  readonly refunds: { id: string; payment_intent: string; amount: number }[] = [];
  /** Customers created (a card kept on file: API.md 14.2), by id. */
  readonly customers = new Map<string, Record<string, unknown>>();
  /** Requests that broke Stripe's OpenAPI document (tests assert there are none). */
  readonly violations: string[] = [];
  readonly requests: { method: string; path: string; params: Record<string, unknown>; key?: string }[] = [];
  private readonly idempotent = new Map<string, { params: string; status: number; body: unknown }>();
  /** Answers of the next N requests held back this long (after Stripe has acted): timeouts. */
  delay = { count: 0, ms: 0 };
  /** The next N API calls answered with this error instead (Stripe's answer to the call, before acting). */
  failNext: null | { count: number; status: number; type: string; message: string; code?: string } = null;
  /**
   * Off-session charges (a card on file charged without the guest, API.md 14.2) declined with this
   * decline code, as an issuer declines a card that paid at booking once its funds ran out.
   */
  declineOffSession: string | null = null;
  /** Refunds answered with this error instead (a refusal, or Stripe failing). */
  refundFailure: null | { status: number; type: string; message: string } = null;
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        if (req.url === '/v3' || req.url === '/test/complete-action') return this.standIn(req, body, res);
        const answer = this.handle(req, body);
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
          res.end(JSON.stringify(answer.body));
        };
        if (this.delay.count > 0) {
          this.delay.count--;
          setTimeout(send, this.delay.ms);
        } else send();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Stripe.js's stand-in, and the guest passing 3-D Secure in it (what Stripe.js would do). */
  private standIn(req: IncomingMessage, body: string, res: ServerResponse): void {
    const cors = { 'access-control-allow-origin': '*' };
    if (req.url === '/v3') {
      res.writeHead(200, { 'content-type': 'text/javascript', ...cors });
      res.end(STAND_IN);
      return;
    }
    const intent = this.intentByClientSecret(body);
    if (intent && intent.status === 'requires_action')
      this.completeAction(intent.id, this.threeDSecurePasses);
    res.writeHead(200, { 'content-type': 'application/json', ...cors });
    res.end(
      JSON.stringify(
        !intent
          ? { error: { type: 'invalid_request_error', message: 'No such PaymentIntent.' } }
          : intent.status === 'succeeded'
            ? { id: intent.id, object: 'payment_intent', status: intent.status }
            : {
                error: { type: 'card_error', message: 'We are unable to authenticate your payment method.' },
              },
      ),
    );
  }

  /** Whether the guest passes 3-D Secure in the Stripe.js stand-in. */
  threeDSecurePasses = true;

  /** The app's environment for this server. */
  env(): Record<string, string> {
    return {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: this.secretKey,
      STRIPE_PUBLISHABLE_KEY: this.publishableKey,
      STRIPE_WEBHOOK_SECRET: this.webhookSecret,
      STRIPE_API_BASE: this.url,
      STRIPE_TIMEOUT_MS: '400',
      STRIPE_JS_URL: `${this.url}/v3`,
    };
  }

  /** Money Stripe holds for us: succeeded charges less refunds (in Stripe's units). */
  net(): number {
    let total = 0;
    for (const i of this.intents.values()) if (i.status === 'succeeded') total += i.amount - i.refunded;
    return total;
  }

  succeededCount(): number {
    return [...this.intents.values()].filter((i) => i.status === 'succeeded').length;
  }

  /** The guest finishing 3-D Secure in Stripe.js. */
  completeAction(id: string, succeed = true): void {
    const intent = this.intents.get(id);
    if (!intent) throw new Error(`no ${id}`);
    intent.status = succeed ? 'succeeded' : 'requires_payment_method';
  }

  intentByClientSecret(secret: string): Intent | undefined {
    return [...this.intents.values()].find((i) => i.client_secret === secret);
  }

  /** A webhook body and its `Stripe-Signature`, as Stripe would send them. */
  signedEvent(
    type: string,
    object: unknown,
    options: { id?: string; timestamp?: number; secret?: string } = {},
  ): { payload: string; signature: string; id: string } {
    const id = options.id ?? `evt_${randomBytes(8).toString('hex')}`;
    const payload = JSON.stringify({
      id,
      object: 'event',
      type,
      api_version: '2024-04-10',
      created: Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
    });
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? this.webhookSecret,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    });
    return { payload, signature, id };
  }

  intentObject(intent: Intent, expandCharge: boolean): Record<string, unknown> {
    const card = CARDS[intent.payment_method];
    const charge = {
      id: `ch_${intent.id.slice(3)}`,
      object: 'charge',
      amount: intent.amount,
      amount_refunded: intent.refunded,
      currency: intent.currency,
      payment_intent: intent.id,
      payment_method_details: { type: 'card', card: { brand: card?.brand, last4: card?.last4 } },
    };
    const { refunded: _r, off_session: _o, ...rest } = intent;
    return {
      ...rest,
      latest_charge: intent.status === 'succeeded' ? (expandCharge ? charge : charge.id) : null,
    };
  }

  private check(method: string, specPath: string, params: Record<string, unknown>, req: IncomingMessage) {
    const op = SPEC.paths[specPath]?.[method.toLowerCase()];
    if (!op) return this.violations.push(`${method} ${specPath} is not an operation we allow`);
    if (req.headers.authorization !== `Bearer ${this.secretKey}`)
      this.violations.push('wrong or missing API key');
    if (method === 'POST' && !req.headers['idempotency-key'])
      this.violations.push(`${method} ${specPath} without Idempotency-Key`);
    const form = op.requestBody?.content['application/x-www-form-urlencoded']?.schema;
    const querySchema = {
      type: 'object',
      properties: Object.fromEntries(
        op.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]),
      ),
      additionalProperties: false,
    };
    const schema = method === 'GET' ? querySchema : (form ?? querySchema);
    const validate = ajv.compile(schema);
    if (!validate(structuredClone(params)))
      this.violations.push(
        `${method} ${specPath}: ${ajv.errorsText(validate.errors)} ${JSON.stringify(validate.errors?.map((e) => e.params))}`,
      );
    return 0;
  }

  private handle(
    req: IncomingMessage,
    body: string,
  ): { status: number; body: unknown; headers?: Record<string, string> } {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    const params = method === 'GET' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(body);
    const key = req.headers['idempotency-key'] as string | undefined;
    this.requests.push({ method, path: url.pathname, params, ...(key ? { key } : {}) });
    const error = (status: number, type: string, message: string, extra: Record<string, unknown> = {}) => ({
      status,
      body: { error: { type, message, ...extra } },
    });
    // As Stripe answers a wrong key (its message masks all but the key's last four characters).
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (bearer !== this.secretKey)
      return error(
        401,
        'invalid_request_error',
        `Invalid API Key provided: ${bearer.slice(0, 8)}****${bearer.slice(-4)}`,
      );
    if (this.failNext && this.failNext.count > 0) {
      const f = this.failNext;
      if (--f.count === 0) this.failNext = null;
      return error(f.status, f.type, f.message, f.code ? { code: f.code } : {});
    }
    const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    if (method === 'GET' && intentPath) {
      this.check(method, '/v1/payment_intents/{intent}', params, req);
      const intent = this.intents.get(intentPath[1] as string);
      if (!intent)
        return error(404, 'invalid_request_error', `No such payment_intent: '${intentPath[1]}'`, {
          code: 'resource_missing',
        });
      const expand = (params.expand as string[] | undefined) ?? [];
      return { status: 200, body: this.intentObject(intent, expand.includes('latest_charge')) };
    }
    if (method === 'POST' && url.pathname === '/v1/customers') {
      this.check(method, url.pathname, params, req);
      const scoped = `${url.pathname} ${key}`;
      const previous = key ? this.idempotent.get(scoped) : undefined;
      if (previous)
        return { status: previous.status, body: previous.body, headers: { 'idempotent-replayed': 'true' } };
      const id = `cus_${randomBytes(8).toString('hex')}`;
      const customer = { id, object: 'customer', ...params };
      this.customers.set(id, customer);
      const answer = { status: 200, body: customer };
      if (key) this.idempotent.set(scoped, { params: JSON.stringify(params), ...answer });
      return answer;
    }
    if (method === 'POST' && (url.pathname === '/v1/payment_intents' || url.pathname === '/v1/refunds')) {
      this.check(method, url.pathname, params, req);
      const scoped = `${url.pathname} ${key}`;
      const previous = key ? this.idempotent.get(scoped) : undefined;
      if (previous) {
        if (previous.params !== JSON.stringify(params))
          return error(
            400,
            'idempotency_error',
            'Keys for idempotent requests can only be used with the same parameters they were first used with.',
          );
        return { status: previous.status, body: previous.body, headers: { 'idempotent-replayed': 'true' } };
      }
      const answer = url.pathname === '/v1/refunds' ? this.refund(params) : this.createIntent(params);
      if (key && answer.status < 500)
        this.idempotent.set(scoped, { params: JSON.stringify(params), ...answer });
      return answer;
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${url.pathname}).`);
  }

  private createIntent(params: Record<string, unknown>) {
    const id = `pi_${randomBytes(12).toString('hex')}`;
    const pm = String(params.payment_method);
    const card = CARDS[pm];
    if (!card)
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such PaymentMethod: '${pm}'`,
            param: 'payment_method',
          },
        },
      };
    const intent: Intent = {
      id,
      object: 'payment_intent',
      amount: Number(params.amount),
      currency: String(params.currency),
      status: 'succeeded',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      metadata: (params.metadata as Record<string, string>) ?? {},
      payment_method: pm,
      last_payment_error: null,
      refunded: 0,
      customer: params.customer === undefined ? null : String(params.customer),
      setup_future_usage: params.setup_future_usage === undefined ? null : String(params.setup_future_usage),
      off_session: params.off_session === 'true',
    };
    this.intents.set(id, intent);
    const decline = card.decline ?? (intent.off_session ? this.declineOffSession : null);
    if (decline) {
      intent.status = 'requires_payment_method';
      const message = DECLINE_MESSAGES[decline] ?? 'Your card was declined.';
      intent.last_payment_error = {
        type: 'card_error',
        code: 'card_declined',
        decline_code: decline,
        message,
      };
      return {
        status: 402,
        body: {
          error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: decline,
            message,
            payment_intent: this.intentObject(intent, false),
          },
        },
      };
    }
    if (card.threeDS) intent.status = 'requires_action';
    const expand = (params.expand as string[] | undefined) ?? [];
    return { status: 200, body: this.intentObject(intent, expand.includes('latest_charge')) };
  }

  private refund(params: Record<string, unknown>) {
    if (this.refundFailure) {
      const f = this.refundFailure;
      return { status: f.status, body: { error: { type: f.type, message: f.message } } };
    }
    const intent = this.intents.get(String(params.payment_intent));
    const amount = params.amount === undefined ? undefined : Number(params.amount);
    if (intent?.status !== 'succeeded')
      return {
        status: 400,
        body: {
          error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment.' },
        },
      };
    const left = intent.amount - intent.refunded;
    const value = amount ?? left;
    if (value > left || value <= 0)
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'charge_already_refunded',
            message: `Refund amount (${value}) is greater than unrefunded amount on charge (${left})`,
          },
        },
      };
    intent.refunded += value;
    const refund = {
      id: `re_${randomBytes(10).toString('hex')}`,
      object: 'refund',
      amount: value,
      currency: intent.currency,
      payment_intent: intent.id,
      status: 'succeeded',
    };
    this.refunds.push({ id: refund.id, payment_intent: intent.id, amount: value });
    return { status: 200, body: refund };
  }
}
