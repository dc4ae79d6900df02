/**
 * The real service as a child process, for tests that need one (start-up, crashes, several
 * processes): spawn it, wait for its `listening on` log line, talk JSON over real HTTP, run a CLI.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeScript } from './node-command.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  /** Every line the process printed (stdout and stderr). */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then the exit status. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns the service (`nodeScript('src/server.ts')`) with PORT=0 and waits for its `listening on` log line. */
export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, nodeScript('src/server.ts'), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: '0',
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
      // Required with DATABASE_URL; unused by the embedded engine.
      PUBLIC_BASE_URL: 'https://innkeep.test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let listening: (port: number) => void = () => {};
  const port = new Promise<number>((resolve) => {
    listening = resolve;
  });
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    // Read everything, always: a child blocked on a full pipe would look like a hung service.
    stream?.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (line.includes('listening on')) {
          const parsed = JSON.parse(line) as { port: number };
          listening(parsed.port);
        }
      }
    });
  }
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), 60_000);
  });
  const outcome = await Promise.race([port, exited.then(() => null), gaveUp]);
  clearTimeout(timer);
  if (outcome === 'timeout') child.kill('SIGKILL');
  if (outcome === null || outcome === 'timeout') {
    throw new Error(`service did not start listening (it must log at info):\n${lines.slice(-20).join('\n')}`);
  }
  return {
    child,
    port: outcome,
    baseUrl: `http://127.0.0.1:${outcome}`,
    lines,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs a command to completion, collecting its output. */
export function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

export interface HttpResult<T = Json> {
  status: number;
  headers: Headers;
  body: T;
}

/** JSON over real HTTP. */
export async function http<T = Json>(
  baseUrl: string,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult<T>> {
  const response = await fetch(baseUrl + url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/**
 * Books a stay in a running service over real HTTP (quote, then reservation) for a guest Ana Silva
 * at `email`: one adult, the double room on the flexible plan, `nights` from `fromToday` days ahead.
 */
export async function bookOverHttp(
  service: ServiceProcess,
  stay: { hotelId: string; email: string; fromToday: number; nights: number },
): Promise<{ id: string; accessToken: string }> {
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const quote = await http(service.baseUrl, 'POST', '/api/v1/booking/quote', {
    hotelId: stay.hotelId,
    checkIn: day(stay.fromToday),
    checkOut: day(stay.fromToday + stay.nights),
    adults: 1,
    roomTypeId: 'double',
    ratePlanId: 'flex',
  });
  assert.equal(quote.status, 201, JSON.stringify(quote.body));
  const res = await http(service.baseUrl, 'POST', '/api/v1/booking/reservations', {
    quoteId: quote.body.id,
    guest: { firstName: 'Ana', lastName: 'Silva', email: stay.email },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
