import type { StoredPasskey } from '../staff-passkeys.repository.ts';

/** The public form of a passkey (API.md 12: `me.passkeys`). */
export function passkeyView(p: StoredPasskey) {
  return {
    id: p.publicId,
    name: p.name,
    createdAt: p.createdAt.toISOString(),
    lastUsedAt: p.lastUsedAt ? p.lastUsedAt.toISOString() : null,
  };
}

/** The WebAuthn user handle of an account: its public id's bytes, which name no one. */
export const userHandleOf = (publicId: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(publicId);
