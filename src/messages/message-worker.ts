import type Mail from 'nodemailer/lib/mailer/index.js';
import type { Logger } from 'pino';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { Config } from '../config.ts';
import { recordEvent } from '../events/record-event.ts';
import type { Clock } from '../infra/clock.ts';
import type { Encryptor } from '../infra/crypto/encryption.ts';
import type { Database } from '../infra/db/database.ts';
import { type ClaimWorker, startClaimWorker } from '../infra/outbox/claim-worker.ts';
import { GIVE_UP_AFTER_UNITS, retryDelayUnits } from '../infra/outbox/retry-schedule.ts';
import { reservationRepository } from '../reservations/reservation.repository.ts';
import type { Reservation } from '../reservations/reservation.schemas.ts';
import { reservationView } from '../reservations/reservation.view.ts';
import { isStaffMessageKind, type Language, MESSAGES_CHANNEL } from './message-kinds.ts';
import {
  type ClaimedMessage,
  type MessageOutcome,
  messageOutboxRepository as outbox,
} from './message-outbox.repository.ts';
import { messageView } from './messages.view.ts';
import { renderAddressNotice } from './render/address-notice.ts';
import { type InvoiceFacts, renderMessage } from './render/render-message.ts';
import { renderStaffMessage } from './render/staff-message.ts';
import { STAFF_LINK_CONTEXT } from './staff-outbox.ts';
import { type MailTransport, maskEmail, type SendResult } from './transport.ts';

export interface MessageWorkerOptions {
  db: Database;
  logger: Logger;
  config: Config;
  catalog: CatalogStore;
  clock: Clock;
  transport: MailTransport;
  /**
   * Opens (or finds) the check-in session an invitation links to; null when there can be none.
   * Check-in's command, handed down by the runtime (check-in is a layer above messages).
   */
  openInvitation(code: string): Promise<string | null>;
  /**
   * The PDF of an invoice for its `invoice` e-mail (API.md 13), drawn from the invoice as issued;
   * null when there is no such invoice. Folios' command, handed down by the runtime (folios are a
   * layer above messages).
   */
  invoicePdf(
    hotelId: string,
    invoiceId: string,
    language: Language,
  ): Promise<{ number: string; pdf: Buffer } | null>;
  /** Decrypts the link of a staff e-mail (API.md 12). */
  encryptor: Encryptor;
  concurrency?: number;
}

/**
 * Sends guest messages (API.md 10) through the outbox loop the webhooks use (claim-worker.ts):
 * each due message claimed by one process, rendered in the guest's language, handed to the
 * transport outside any transaction, its outcome recorded a batch at a time. A connection failure
 * or an SMTP 4xx is retried on the webhook schedule (MAIL_RETRY_BASE_SECONDS); a 5xx for the
 * recipient fails the message and records `message.failed` with that outcome.
 */
export function startMessageWorker(options: MessageWorkerOptions): ClaimWorker {
  const { db, logger, config } = options;
  const host = new URL(config.publicBaseUrl).hostname;
  const giveUpAfter = GIVE_UP_AFTER_UNITS * config.mailRetryBaseSeconds;
  // Longer than an attempt (the transport's timeouts bound it), so a live worker's claim never
  // runs out under it; a killed process's messages are claimed again after this.
  const leaseSeconds = (2 * config.mailTimeoutMs + 5_000) / 1000;

  /** A staff e-mail (API.md 12): no reservation, no hotel; its link decrypted only to send it. */
  function attemptStaff(message: ClaimedMessage): Promise<SendResult> {
    const kind = message.kind as string;
    if (!isStaffMessageKind(kind)) throw new Error(`not a staff message: ${kind}`);
    const link = options.encryptor
      .decrypt(Buffer.from(String(message.data.link), 'base64'), STAFF_LINK_CONTEXT)
      .toString('utf8');
    const rendered = renderStaffMessage({
      kind,
      language: message.language,
      name: String(message.data.name ?? ''),
      link,
      invitedBy: typeof message.data.invitedBy === 'string' ? message.data.invitedBy : undefined,
    });
    return options.transport.send(
      {
        from: config.mailFrom,
        to: message.to,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        messageId: `<${message.publicId}@${host}>`,
        headers: { 'Auto-Submitted': 'auto-generated' },
        attachments: [],
      },
      message,
    );
  }

  async function attempt(message: ClaimedMessage): Promise<SendResult | { result: 'dropped' }> {
    if (isStaffMessageKind(message.kind)) return attemptStaff(message);
    const row = await reservationRepository.findById(db, message.reservationId);
    const hotel = options.catalog.get(message.hotelId);
    if (!hotel) return { result: 'retry', error: `hotel ${message.hotelId} is not in the catalogue` };
    let reservation = message.data.reservation as Reservation | undefined;
    let invitationLink: string | undefined;
    if (message.kind === 'checkin_invitation') {
      // Never for a cancelled stay or a completed check-in, whatever happened since it was queued.
      const unwanted = row.status === 'cancelled' || row.checkinStatus === 'completed';
      const session = unwanted ? null : await options.openInvitation(row.code);
      if (session === null) {
        return message.automatic
          ? { result: 'dropped' }
          : { result: 'failed', error: 'no check-in session can be opened for this reservation' };
      }
      invitationLink = `${config.publicBaseUrl}/checkin/${session}`;
      reservation = reservationView(row);
    }
    if (message.kind === 'payment_request') {
      // The balance is paid in the check-in session's payment step (API.md 14.2); once the stay is
      // cancelled or nothing is owed any more, there is nothing to ask for.
      if (row.status === 'cancelled' || reservationView(row).payment.due.amount === 0)
        return { result: 'dropped' };
      const session = await options.openInvitation(row.code);
      invitationLink = session
        ? `${config.publicBaseUrl}/checkin/${session}`
        : `${config.publicBaseUrl}/checkin?code=${encodeURIComponent(row.code)}`;
    }
    if (!reservation) return { result: 'failed', error: 'message without its reservation' };
    const invoice =
      message.kind === 'invoice' ? (message.data.invoice as InvoiceFacts & { id: string }) : undefined;
    const attachments: Mail.Attachment[] = [];
    if (invoice) {
      // Drawn now from the invoice, which never changes: the outbox row holds no document.
      const document = await options.invoicePdf(message.hotelId, invoice.id, message.language);
      if (!document) return { result: 'failed', error: `invoice ${invoice.id} is not there` };
      attachments.push({
        filename: `${document.number}.pdf`,
        content: document.pdf,
        contentType: 'application/pdf',
      });
    }
    const rendered = message.data.addressChanged
      ? renderAddressNotice({
          language: message.language,
          hotel,
          code: reservation.id,
          newAddress: String(message.data.newAddress ?? ''),
        })
      : renderMessage({
          kind: message.kind,
          language: message.language,
          reservation,
          previous: message.data.previous as Reservation | undefined,
          noShow: message.data.noShow === true,
          guests: message.data.guests as Array<{ firstName: string; lastName: string }> | undefined,
          hotel,
          invitationLink,
          amount: message.data.amount as { amount: number; currency: string } | undefined,
          publicBaseUrl: config.publicBaseUrl,
          now: options.clock.now(),
          invoice,
        });
    return options.transport.send(
      {
        from: config.mailFrom,
        to: message.to,
        ...(hotel.email ? { replyTo: hotel.email } : {}),
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        // Stable across attempts, so a message sent twice (at least once) reads as one.
        messageId: `<${message.publicId}@${host}>`,
        headers: { 'Auto-Submitted': 'auto-generated' },
        attachments: rendered.calendar
          ? [
              {
                filename: 'reservation.ics',
                content: rendered.calendar,
                contentType: `text/calendar; charset=utf-8; method=${/METHOD:CANCEL/.test(rendered.calendar) ? 'CANCEL' : 'PUBLISH'}`,
              },
            ]
          : attachments,
      },
      message,
    );
  }

  async function run(message: ClaimedMessage): Promise<MessageOutcome> {
    let outcome: SendResult | { result: 'dropped' };
    try {
      outcome = await attempt(message);
    } catch (error) {
      outcome = { result: 'retry', error: String((error as Error).message ?? error).slice(0, 300) };
    }
    const error = 'error' in outcome ? outcome.error : null;
    if (outcome.result === 'retry' || outcome.result === 'failed') {
      // The address masked: logs are no place for guests' e-mail addresses.
      logger.warn(
        {
          message: message.publicId,
          kind: message.kind,
          to: maskEmail(message.to),
          attempt: message.attempts,
          error,
        },
        `guest message ${outcome.result === 'failed' ? 'refused' : 'not sent; will retry'}`,
      );
    }
    return {
      id: message.id,
      hotelId: message.hotelId,
      claim: message.claim,
      result: outcome.result,
      error,
      retryAfterSeconds:
        outcome.result === 'retry' ? retryDelayUnits(message.attempts) * config.mailRetryBaseSeconds : null,
    };
  }

  return startClaimWorker<ClaimedMessage, MessageOutcome>({
    db,
    logger,
    name: 'guest message',
    channel: MESSAGES_CHANNEL,
    concurrency: options.concurrency ?? 4,
    pollIntervalMs: config.webhookPollIntervalMs,
    graceMs: 10_000,
    claim: (limit, claim) => outbox.claim(db, limit, claim, leaseSeconds),
    run: (message) => run(message),
    async record(tx, outcomes) {
      const failed = await outbox.record(tx, outcomes, giveUpAfter);
      for (const m of failed) {
        if (isStaffMessageKind(m.kind)) continue; // a staff e-mail is no reservation's event
        // In the transaction that marks it failed: the event and the status commit together.
        await recordEvent(tx, {
          type: 'message.failed',
          hotelId: m.hotelId,
          data: { message: messageView(m), reservationId: m.data.code },
        });
      }
    },
    release: (message) => outbox.release(db, message.id, message.claim),
  });
}
