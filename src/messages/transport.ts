import { mkdir, rename, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';

/** What came of handing one message to the transport. */
export type SendResult =
  | { result: 'sent' }
  | { result: 'retry'; error: string }
  | { result: 'failed'; error: string };

/** What names a message's file: stable across attempts. */
export interface MessageName {
  publicId: string;
  kind: string;
  createdAt: Date;
}

/** Where messages go: an SMTP server, or `.eml` files (embedded engine without SMTP_URL). */
export interface MailTransport {
  readonly kind: 'smtp' | 'files';
  send(message: Mail.Options & { messageId: string }, name: MessageName): Promise<SendResult>;
  close(): void;
}

/** SMTP's verdict on a refused message: a permanent refusal of the message or recipient fails it. */
export function classifySmtpError(error: unknown): SendResult {
  const e = error as { responseCode?: number; code?: string; response?: string; message?: string };
  const text = (e.response ?? e.message ?? String(error)).replace(/\s+/g, ' ').slice(0, 300);
  const status = e.responseCode;
  // A 5xx for the recipient or the message (RCPT, DATA) is final; a 5xx elsewhere (authentication,
  // the server's own setup) is the deployment's to fix, so the message waits for it.
  if (status !== undefined && status >= 500 && (e.code === 'EENVELOPE' || e.code === 'EMESSAGE')) {
    return { result: 'failed', error: text };
  }
  // The server offers no STARTTLS where it is required (smtpRequiresStartTls): nothing was sent.
  if (e.code === 'ETLS') return { result: 'retry', error: `ETLS: STARTTLS required, not available: ${text}` };
  return { result: 'retry', error: status ? text : `${e.code ?? 'error'}: ${text}` };
}

/**
 * Whether an `smtp://` connection must be upgraded with STARTTLS before anything is said (the
 * password, the guests' messages): always, unless the server is on this host (`localhost`, a
 * loopback address: a relay the operator runs beside the service) or `SMTP_ALLOW_PLAINTEXT` says so.
 * Decided on the host as written in the URL, not on what a name resolves to: a name is not trusted
 * to stay on this host. `smtps://` is TLS from the first byte and needs no upgrade.
 */
export function smtpRequiresStartTls(url: string, allowPlaintext: boolean): boolean {
  const parsed = new URL(url);
  if (parsed.protocol !== 'smtp:' || allowPlaintext) return false;
  return !isLoopbackHost(parsed.hostname.replace(/^\[|\]$/g, ''));
}

/**
 * `localhost` or a loopback address (127.0.0.0/8, ::1, 127.x as IPv4-mapped IPv6), as the WHATWG URL
 * parser writes a host: IPv4 in dotted decimal whatever its spelling, IPv6 compressed in hex.
 */
function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost') return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(name);
}

/**
 * SMTP over `SMTP_URL` (API.md 10): `smtp://` upgrades with STARTTLS (nodemailer's default when the
 * server offers it; required, so a server that offers none is refused before the password is sent,
 * unless `smtpRequiresStartTls` exempts it), `smtps://` is TLS from the first byte. Timeouts bound
 * an attempt well inside the worker's lease.
 */
export function smtpTransport(
  url: string,
  timeoutMs: number,
  options: { requireTls: boolean },
): MailTransport {
  // One options object: `createTransport(url, x)` would take `x` as message defaults, not as the
  // connection's settings. Settings in SMTP_URL's query (`?ignoreTLS=true`) are the operator's own.
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: Math.min(timeoutMs, 10_000),
    greetingTimeout: Math.min(timeoutMs, 10_000),
    socketTimeout: timeoutMs,
    requireTLS: options.requireTls,
  } as never);
  return {
    kind: 'smtp',
    async send(message) {
      try {
        const info = await transporter.sendMail(message);
        if (info.rejected.length > 0 && info.accepted.length === 0) {
          return { result: 'failed', error: String(info.response ?? 'recipient refused') };
        }
        return { result: 'sent' };
      } catch (error) {
        return classifySmtpError(error);
      }
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP on the embedded engine: each message is written as an `.eml` file to
 * `DATA_DIR/mail/` and counts as sent (API.md 10), so a first run shows what guests would
 * receive. Named by the message, so a message written again (a crash before its outcome was
 * recorded) replaces its own file; written whole, then renamed, so no reader sees half a mail.
 */
export function fileTransport(dataDir: string): MailTransport {
  const dir = path.join(dataDir, 'mail');
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    kind: 'files',
    async send(message, name) {
      try {
        const info = (await composer.sendMail(message)) as unknown as { message: Buffer };
        await mkdir(dir, { recursive: true });
        const created = name.createdAt.toISOString().replace(/[:.]/g, '-');
        const file = path.join(dir, `${created}-${name.kind}-${name.publicId}.eml`);
        const temporary = `${file}.tmp`;
        await writeFile(temporary, info.message, { mode: 0o600 });
        await rename(temporary, file);
        return { result: 'sent' };
      } catch (error) {
        return { result: 'retry', error: String((error as Error).message ?? error).slice(0, 300) };
      }
    },
    close: () => composer.close(),
  };
}

/** A guest address as logs may show it: `a***@example.com`. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address[0]}***${address.slice(at)}`;
}
