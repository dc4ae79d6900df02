import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 and a free port, for the guest-message tests: it parses every
 * accepted mail (mailparser) and can refuse, per attempt, with the reply a test asks for.
 */
export interface SmtpReceiver {
  url: string;
  port: number;
  mails: ParsedMail[];
  /** Every attempt's recipient and the reply it got (`250` or the refusal). */
  attempts: Array<{ to: string; code: number }>;
  /** Decides each RCPT: a code ≥ 400 refuses it with that code. */
  refuse: ((to: string, attempt: number) => number | null) | null;
  /** Takes each message's data and never answers it (a server that hangs mid-send). */
  hang: boolean;
  /** Every AUTH the server was given: the user name and whether a password came with it. */
  logins: Array<{ username: string; password: boolean }>;
  close(): Promise<void>;
}

/**
 * `options.host`: the address to listen on and to name in `url` (default 127.0.0.1); the TLS tests
 * listen on a non-loopback address of this machine. The server never offers STARTTLS, and takes
 * AUTH without it (recording it), as a careless relay would.
 */
export async function startSmtpReceiver(options: { host?: string } = {}): Promise<SmtpReceiver> {
  const host = options.host ?? '127.0.0.1';
  const receiver: SmtpReceiver = {
    url: '',
    port: 0,
    mails: [],
    attempts: [],
    refuse: null,
    hang: false,
    logins: [],
    close: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      receiver.logins.push({ username: auth.username ?? '', password: Boolean(auth.password) });
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      const code = receiver.refuse?.(address.address, receiver.attempts.length + 1) ?? null;
      receiver.attempts.push({ to: address.address, code: code ?? 250 });
      if (code !== null && code >= 400) {
        const error = new Error(code >= 500 ? 'mailbox unavailable' : 'try again later') as Error & {
          responseCode: number;
        };
        error.responseCode = code;
        return callback(error);
      }
      callback();
    },
    onData(stream, _session, callback) {
      if (receiver.hang) {
        stream.resume();
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          receiver.mails.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  // A client killed mid-session resets its socket: that is a test's doing, not a failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.server.address();
  receiver.port = typeof address === 'object' && address ? address.port : 0;
  receiver.url = `smtp://${host}:${receiver.port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      // Hanging sessions are cut rather than waited for.
      const timer = setTimeout(resolve, 1000);
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return receiver;
}
