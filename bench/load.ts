import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** The service processes' CPU (user + system, from /proc) per request answered, when measured. */
  cpuMsPerRequest?: number;
}

export interface LoadSpec {
  method: 'GET' | 'POST';
  /** The i-th request's path. */
  path: (i: number) => string;
  /** The i-th request's JSON body text. */
  body?: (i: number) => string;
  connections: number;
  /** Seconds; or `amount` requests in all. */
  duration?: number;
  amount?: number;
  /** Called with each response body (e.g. to collect the ids of created quotes). */
  onBody?: (status: number, body: string) => void;
}

function once(url: string, spec: LoadSpec, connections: number, offset: number): Promise<autocannon.Result> {
  let i = offset;
  // autocannon ends an `amount` run at its next one-second tick and reports the duration to that
  // tick, which would quantise throughput to amount ÷ whole seconds (1,500 bookings in 2.1 s or in
  // 2.9 s both read 500/s): time such a run to its last response instead.
  const startedAt = performance.now();
  let lastResponseAt = startedAt;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        ...(spec.amount !== undefined ? { amount: spec.amount } : { duration: spec.duration ?? 5 }),
        timeout: 10,
        requests: [
          {
            method: spec.method,
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) => {
              const n = i++;
              return { ...request, path: spec.path(n), ...(spec.body ? { body: spec.body(n) } : {}) };
            },
            ...(spec.onBody
              ? {
                  onResponse: (status: number, body: string) => spec.onBody?.(status, body),
                }
              : {}),
          },
        ],
      },
      (err, result) =>
        err
          ? reject(err)
          : resolve(
              spec.amount !== undefined
                ? { ...result, duration: (lastResponseAt - startedAt) / 1000 }
                : result,
            ),
    );
    instance.on('response', () => {
      lastResponseAt = performance.now();
    });
  });
}

/**
 * Runs autocannon against one or several processes at once (the connections split between them)
 * and merges the results: throughput adds up; p50 is the request-weighted mean, p99 the worst.
 */
export async function load(urls: string[], spec: LoadSpec): Promise<LoadResult> {
  const share = Math.max(1, Math.floor(spec.connections / urls.length));
  const results = await Promise.all(
    urls.map((url, k) =>
      once(
        url,
        { ...spec, ...(spec.amount !== undefined ? { amount: Math.ceil(spec.amount / urls.length) } : {}) },
        share,
        k * 1_000_000,
      ),
    ),
  );
  const total = results.reduce((n, r) => n + r.requests.total, 0);
  return {
    rps: results.reduce((n, r) => n + r.requests.total / Math.max(r.duration, 0.001), 0),
    p50: results.reduce((n, r) => n + r.latency.p50 * r.requests.total, 0) / Math.max(total, 1),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    requests: total,
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
  };
}

/**
 * The mean of rounds of one measurement: throughput and latencies averaged, counts summed, CPU per
 * request over all the rounds' requests (when every round measured it).
 */
export const meanOf = (rs: LoadResult[]): LoadResult => ({
  ...(rs.length > 0 && rs.every((r) => r.cpuMsPerRequest !== undefined)
    ? {
        cpuMsPerRequest:
          rs.reduce((n, r) => n + (r.cpuMsPerRequest ?? 0) * r.requests, 0) /
          Math.max(
            1,
            rs.reduce((n, r) => n + r.requests, 0),
          ),
      }
    : {}),
  rps: rs.reduce((n, r) => n + r.rps, 0) / rs.length,
  p50: rs.reduce((n, r) => n + r.p50, 0) / rs.length,
  p99: rs.reduce((n, r) => n + r.p99, 0) / rs.length,
  requests: rs.reduce((n, r) => n + r.requests, 0),
  non2xx: rs.reduce((n, r) => n + r.non2xx, 0),
  errors: rs.reduce((n, r) => n + r.errors, 0),
});
