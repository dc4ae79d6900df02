import type { FastifyReply } from 'fastify';

/**
 * `Vary` as the answer has it and the names added to it → the merged header, for the few pairs
 * the service ever makes (search adds `Accept-Language` to `Origin` on every answer). Bounded.
 */
const merged = new Map<string, Map<string, string>>();
const MERGED_LIMIT = 256;

function merge(text: string, fields: string): string {
  const present = new Set(text.split(',').map((name) => name.trim().toLowerCase()));
  if (present.has('*')) return text;
  const added = fields
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && !present.has(name.toLowerCase()));
  return added.length === 0 ? text : [text, ...added].join(', ');
}

/**
 * Adds header names to the answer's `Vary`, keeping those already there. Every answer varies on
 * `Origin` (set before the handler runs, security.ts), so a handler setting `Vary` outright would
 * drop it, and a shared cache could hand one origin's CORS answer to another. `*` stays `*`.
 */
export function varyOn(reply: FastifyReply, fields: string): FastifyReply {
  const header = reply.getHeader('vary');
  if (header === undefined || header === '') return reply.header('vary', fields);
  const text = Array.isArray(header) ? header.join(', ') : String(header);
  let byFields = merged.get(text);
  if (!byFields) {
    if (merged.size >= MERGED_LIMIT) merged.clear();
    byFields = new Map();
    merged.set(text, byFields);
  }
  let next = byFields.get(fields);
  if (next === undefined) {
    next = merge(text, fields);
    if (byFields.size < MERGED_LIMIT) byFields.set(fields, next);
  }
  return next === text ? reply : reply.header('vary', next);
}

/** Sets a map of headers (a stored answer's, say), adding its `Vary` to the answer's (`varyOn`). */
export function withHeaders(reply: FastifyReply, headers: Readonly<Record<string, string>>): FastifyReply {
  for (const name in headers) {
    const value = headers[name] as string;
    if (name.length === 4 && name.toLowerCase() === 'vary') varyOn(reply, value);
    else reply.header(name, value);
  }
  return reply;
}
