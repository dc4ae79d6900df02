import type { Encryptor } from '../infra/crypto/encryption.ts';
import { randomToken } from '../infra/crypto/tokens.ts';
import { type Executor, isTransaction } from '../infra/db/database.ts';
import { wakeAfterCommit } from '../infra/db/wake.ts';
import { type Language, MESSAGES_CHANNEL, type StaffMessageKind } from './message-kinds.ts';
import { messageRepository } from './messages.repository.ts';

/** The encryption context of a staff e-mail's link: the link carries a one-time token. */
export const STAFF_LINK_CONTEXT = 'staff-message-link';

/** A staff e-mail to queue: to whom, in which language, and the link it carries (with its token). */
export interface StaffNews {
  kind: StaffMessageKind;
  to: string;
  name: string;
  language: Language;
  /** PUBLIC_BASE_URL/desk/welcome#<token> or /desk/reset#<token>: stored encrypted, never in clear. */
  link: string;
  /** Who invited, for the invitation's text. */
  invitedBy?: string;
}

/**
 * Records a staff e-mail in the transaction of the change that causes it (the outbox of API.md
 * 10): an invitation or a password reset. The link is kept encrypted with the data key, so the
 * outbox table never holds a usable token; the worker decrypts it to send.
 */
export async function tellStaff(tx: Executor, encryptor: Encryptor, news: StaffNews): Promise<void> {
  const link = encryptor.encrypt(news.link, STAFF_LINK_CONTEXT).toString('base64');
  await messageRepository.queueStaff(
    tx,
    {
      publicId: randomToken('msg_', 16),
      kind: news.kind,
      to: news.to,
      language: news.language,
      data: { name: news.name, link, ...(news.invitedBy ? { invitedBy: news.invitedBy } : {}) },
    },
    MESSAGES_CHANNEL,
  );
  if (isTransaction(tx)) wakeAfterCommit(tx, MESSAGES_CHANNEL);
}
