import { createHash } from 'node:crypto';

interface Entry {
  digest: string;
  kid: string;
  jws: string;
}

/**
 * The latest signature made for each of a bounded number of subjects (a check-in session), least
 * recently used evicted first. An entry answers only the same payload (by digest) signed by the
 * same key: a changed subject, or a rotated key, is signed afresh.
 */
export class SignatureCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity: number) {}

  static digestOf(payload: string): string {
    return createHash('sha256').update(payload).digest('base64url');
  }

  get(subject: string, digest: string, kid: string): string | null {
    const entry = this.entries.get(subject);
    if (!entry || entry.digest !== digest || entry.kid !== kid) return null;
    // Most recently used last: Map iteration order is insertion order.
    this.entries.delete(subject);
    this.entries.set(subject, entry);
    return entry.jws;
  }

  set(subject: string, entry: Entry): void {
    this.entries.delete(subject);
    this.entries.set(subject, entry);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
