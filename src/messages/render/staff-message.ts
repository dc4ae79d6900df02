import { escapeHtml } from '../../infra/escape-html.ts';
import type { Language, StaffMessageKind } from '../message-kinds.ts';
import { fill, TEXTS } from './texts.ts';

/** A staff e-mail in the person's language: subject, text and HTML parts. */
export function renderStaffMessage(m: {
  kind: StaffMessageKind;
  language: Language;
  name: string;
  link: string;
  invitedBy?: string | undefined;
}): { subject: string; text: string; html: string } {
  const t = TEXTS[m.language].staff[m.kind];
  const values = { name: m.name, by: m.invitedBy ?? 'Innkeep' };
  const lines = [fill(t.greeting, values), fill(t.body, values), m.link, t.expiry, t.ignore];
  const html = [
    '<!doctype html>',
    `<html lang="${m.language}"><head><meta charset="utf-8"><title>${escapeHtml(t.subject)}</title></head><body>`,
    `<p>${escapeHtml(fill(t.greeting, values))}</p>`,
    `<p>${escapeHtml(fill(t.body, values))}</p>`,
    `<p><a href="${escapeHtml(m.link)}">${escapeHtml(t.button)}</a></p>`,
    `<p>${escapeHtml(t.expiry)} ${escapeHtml(t.ignore)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: t.subject, text: `${lines.join('\n\n')}\n`, html };
}
