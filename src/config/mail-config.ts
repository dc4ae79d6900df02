/** The guest-message settings of the configuration (docs/api.md §10). */

/** The host of a URL (for the default `From:` address), `localhost` when it has none. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '') || 'localhost';
  } catch {
    return 'localhost';
  }
}

/** The mail settings' rules beyond the schema's (API.md 10): the URL's scheme, the default sender's shape. */
export function mailProblems(config: { smtpUrl: string | null; mailFrom: string }): string[] {
  const problems: string[] = [];
  if (config.smtpUrl !== null) {
    let protocol = '';
    try {
      protocol = new URL(config.smtpUrl).protocol;
    } catch {}
    if (protocol !== 'smtp:' && protocol !== 'smtps:') {
      problems.push(
        'SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587',
      );
    }
  }
  if (!/^[^<>\r\n]*<[^<>\s@]+@[^<>\s@]+>$|^[^<>\s@]+@[^<>\s@]+$/.test(config.mailFrom)) {
    problems.push('MAIL_FROM must be an address, e.g. "Harbour View <stay@harbour.example>"');
  }
  return problems;
}
