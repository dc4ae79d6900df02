import { toRfc3339 } from '../dates/dates.ts';
import type { MessageRow } from './messages.repository.ts';

/** A message as the operator API shows it (API.md 10): never its content, which the guest's mail holds. */
export function messageView(m: MessageRow) {
  return {
    id: m.publicId,
    kind: m.kind,
    to: m.to,
    language: m.language,
    status: m.status,
    attempts: m.attempts,
    lastError: m.lastError,
    createdAt: toRfc3339(m.createdAt),
    sentAt: m.sentAt ? toRfc3339(m.sentAt) : null,
    sendAfter: toRfc3339(m.sendAfter),
    automatic: m.automatic,
  };
}
