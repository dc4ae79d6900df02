import { mkdir, rename, writeFile } from 'node:fs/promises';
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
  return { result: 'retry', error: status ? text : `${e.code ?? 'error'}: ${text}` };
}

/**
 * SMTP over `SMTP_URL` (API.md 10): `smtp://` upgrades with STARTTLS whenever the server offers it
 * (nodemailer's default), `smtps://` is TLS from the first byte. Timeouts bound an attempt well
 * inside the worker's lease.
 */
export function smtpTransport(url: string, timeoutMs: number): MailTransport {
  const transporter = nodemailer.createTransport(url, {
    connectionTimeout: Math.min(timeoutMs, 10_000),
    greetingTimeout: Math.min(timeoutMs, 10_000),
    socketTimeout: timeoutMs,
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
