/**
 * Why an outbound request (a webhook attempt, an iCal fetch) got no answer, as stored for the
 * operator to read: a class and Node's error code, never the error's message, which can name the
 * address a host resolved to or the internal route to it ("connect ECONNREFUSED 10.0.0.7:443", a
 * certificate's alternative names). docs/api.md: a stored error never says where a name resolved.
 */
export type FailureClass = 'timeout' | 'refused' | 'reset' | 'dns' | 'unreachable' | 'tls' | 'network';

const CLASS_OF_CODE: Record<string, FailureClass> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  ECONNABORTED: 'reset',
  EPIPE: 'reset',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EAI_NONAME: 'dns',
  ENODATA: 'dns',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  ENETDOWN: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  EPROTO: 'tls',
};

const WORDS: Record<FailureClass, string> = {
  timeout: 'timeout',
  refused: 'connection refused',
  reset: 'connection reset',
  dns: 'dns: the host does not resolve',
  unreachable: 'network unreachable',
  tls: 'tls: no secure connection',
  network: 'network error',
};

/** A code as Node and OpenSSL write them (`ECONNREFUSED`, `CERT_HAS_EXPIRED`): nothing else is kept. */
const CODE = /^[A-Z][A-Z0-9_]{1,63}$/;

function isTlsCode(code: string): boolean {
  return (
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code.startsWith('CERT_') ||
    code.startsWith('UNABLE_TO_') ||
    code.includes('SELF_SIGNED') ||
    code.includes('_CERT')
  );
}

/** The class of a network error, by its code alone. */
export function failureClass(error: unknown): FailureClass {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !CODE.test(code)) return 'network';
  return CLASS_OF_CODE[code] ?? (isTlsCode(code) ? 'tls' : 'network');
}

/** The stored reason of a network error: its class in words, with its code (`connection refused (ECONNREFUSED)`). */
export function networkFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const words = WORDS[failureClass(error)];
  return typeof code === 'string' && CODE.test(code) ? `${words} (${code})` : words;
}
