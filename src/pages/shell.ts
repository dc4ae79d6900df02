import { escapeHtml } from '../infra/escape-html.ts';
import type { Language } from '../infra/i18n/languages.ts';

/** A page's catalogue of texts: flat keys, `{name}` placeholders (web/i18n/<lang>.json). */
export type Texts = Record<string, string>;

export interface ShellOptions {
  /** The page's folder under web/, and its script `web/<page>/<page>.js`. */
  page: string;
  lang: Language;
  texts: Texts;
  title: string;
  /** Values the script reads from `<body data-…>`: no inline script is needed (CSP). */
  data?: Record<string, string>;
  /** Server-rendered content of <main>, e.g. the not-found message; else a loading note. */
  mainHtml?: string;
  /** The URL of an asset by its path under web/ (versioned, so it can be cached for good). */
  asset: (path: string) => string;
}

/**
 * The HTML every page starts from. Everything visible is rendered by the page's ES module from
 * the catalogue; the shell carries only the language, the title, and a message for no script.
 */
export function renderShell(o: ShellOptions): string {
  const data = Object.entries(o.data ?? {})
    .map(([key, value]) => ` data-${key}="${escapeHtml(value)}"`)
    .join('');
  const t = (key: string) => escapeHtml(o.texts[key] ?? key);
  return `<!doctype html>
<html lang="${o.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light">
<title>${escapeHtml(o.title)}</title>
<link rel="icon" href="${o.asset('shared/icon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${o.asset('shared/style.css')}">
<script type="module" src="${o.asset(`${o.page}/${o.page}.js`)}"></script>
</head>
<body data-page="${o.page}"${data}>
<a class="skip-link" href="#main">${t('skipToContent')}</a>
<header class="site-header"><span class="brand">${t('brand')}</span><span id="language-switch"></span></header>
<main id="main" tabindex="-1">${o.mainHtml ?? `<p class="loading">${t('loading')}</p>`}</main>
<noscript><p class="notice">${t('noScript')}</p></noscript>
</body>
</html>
`;
}
