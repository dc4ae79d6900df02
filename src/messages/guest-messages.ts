import type { Logger } from 'pino';
import type { AppContext } from '../context.ts';
import type { ClaimWorker } from '../infra/outbox/claim-worker.ts';
import { type MessageWorkerOptions, startMessageWorker } from './message-worker.ts';
import { messageRepository } from './messages.repository.ts';
import { fileTransport, type MailTransport, smtpRequiresStartTls, smtpTransport } from './transport.ts';

export interface GuestMessages {
  stop(): Promise<void>;
}

/**
 * Starts sending guest messages (API.md 10) in this process: over SMTP_URL; without it, on the
 * embedded engine, as `.eml` files in DATA_DIR/mail/; on PostgreSQL without it, not at all: the
 * service warns and messages stay queued until SMTP_URL is set (a file in one process's directory
 * would be no delivery for a deployment of several).
 */
export async function startGuestMessages(
  ctx: AppContext,
  logger: Logger,
  openInvitation: (code: string) => Promise<string | null>,
  invoicePdf: MessageWorkerOptions['invoicePdf'],
): Promise<GuestMessages> {
  let transport: MailTransport;
  if (ctx.config.smtpUrl) {
    const requireTls = smtpRequiresStartTls(ctx.config.smtpUrl, ctx.config.smtpAllowPlaintext);
    transport = smtpTransport(ctx.config.smtpUrl, ctx.config.mailTimeoutMs, { requireTls });
    logger.info(
      { smtp: new URL(ctx.config.smtpUrl).host, requireTls },
      requireTls
        ? 'guest messages: sending over SMTP, STARTTLS required (SMTP_ALLOW_PLAINTEXT=true allows a server without it)'
        : 'guest messages: sending over SMTP',
    );
  } else if (!ctx.config.databaseUrl) {
    transport = fileTransport(ctx.config.dataDir);
    logger.info(
      { dir: `${ctx.config.dataDir}/mail` },
      'guest messages: SMTP_URL is not set, so they are written as .eml files (and count as sent)',
    );
  } else {
    const queued = await messageRepository.countQueued(ctx.db);
    logger.warn(
      { queued },
      'guest messages: SMTP_URL is not set, so none is sent; they stay queued until it is (e.g. SMTP_URL=smtp://user:pass@mail.example.com:587)',
    );
    return { stop: async () => {} };
  }
  const worker: ClaimWorker = startMessageWorker({
    db: ctx.db,
    logger,
    config: ctx.config,
    catalog: ctx.catalog,
    clock: ctx.clock,
    transport,
    openInvitation,
    invoicePdf,
    encryptor: ctx.encryptor,
  });
  return {
    async stop() {
      await worker.stop();
      transport.close();
    },
  };
}
