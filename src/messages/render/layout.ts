import { escapeHtml } from '../../infra/escape-html.ts';
import type { Section } from './sections.ts';

/** The plain-text part: sections one after another, rows as `label: value`. */
export function textOf(heading: string, sections: Section[]): string {
  const out: string[] = [heading, ''];
  for (const s of sections) {
    if (s.title) out.push(s.title, '-'.repeat(s.title.length));
    for (const p of s.paragraphs ?? []) out.push(p);
    for (const [label, value] of s.rows ?? []) out.push(`${label}: ${value}`);
    if (s.button) out.push(`${s.button.label}: ${s.button.url}`);
    for (const n of s.notes ?? []) out.push(n);
    out.push('');
  }
  return `${out.join('\n').trim()}\n`;
}

const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

function sectionHtml(s: Section): string {
  const parts: string[] = [];
  if (s.title) {
    parts.push(
      `<h2 style="margin:24px 0 8px;font-size:16px;color:#1f2937;${FONT}">${escapeHtml(s.title)}</h2>`,
    );
  }
  for (const p of s.paragraphs ?? []) {
    parts.push(
      `<p style="margin:0 0 12px;font-size:15px;line-height:1.5;color:#1f2937;${FONT}">${escapeHtml(p)}</p>`,
    );
  }
  if (s.rows && s.rows.length > 0) {
    const rows = s.rows
      .map(
        ([label, value]) =>
          `<tr><td style="padding:6px 12px 6px 0;font-size:14px;color:#6b7280;vertical-align:top;${FONT}">${escapeHtml(label)}</td>` +
          `<td style="padding:6px 0;font-size:14px;color:#111827;text-align:right;vertical-align:top;${FONT}">${escapeHtml(value)}</td></tr>`,
      )
      .join('');
    parts.push(
      `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;border-top:1px solid #e5e7eb;margin:0 0 8px">${rows}</table>`,
    );
  }
  if (s.button) {
    const url = escapeHtml(s.button.url);
    parts.push(
      `<p style="margin:20px 0"><a href="${url}" style="display:inline-block;background:#0f766e;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:6px;font-size:16px;font-weight:600;${FONT}">${escapeHtml(s.button.label)}</a></p>` +
        `<p style="margin:0 0 12px;font-size:13px;color:#6b7280;word-break:break-all;${FONT}">${url}</p>`,
    );
  }
  for (const n of s.notes ?? []) {
    parts.push(
      `<p style="margin:0 0 8px;font-size:12px;line-height:1.5;color:#6b7280;${FONT}">${escapeHtml(n)}</p>`,
    );
  }
  return parts.join('\n');
}

/**
 * The HTML part: one centred column at most 600 px wide (a phone's width and a desktop client's),
 * every style inline (clients drop `<style>` and external sheets), no image, and the JSON-LD of
 * the booking messages in the head.
 */
export function htmlOf(input: {
  language: string;
  title: string;
  heading: string;
  sections: Section[];
  jsonLd: string | null;
}): string {
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(input.title)}</title>`,
    ...(input.jsonLd ? [`<script type="application/ld+json">${input.jsonLd}</script>`] : []),
  ].join('\n');
  const body = input.sections.map(sectionHtml).join('\n');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(input.language)}">
<head>
${head}
</head>
<body style="margin:0;padding:0;background:#f3f4f6">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6">
<tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px">
<tr><td style="padding:24px 20px">
<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3;color:#0f766e;${FONT}">${escapeHtml(input.heading)}</h1>
${body}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}
