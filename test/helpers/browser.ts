import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import type { HotelDef } from '../../src/catalog/catalog.schema.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Debian's Chromium (CI installs it with apt-get); CHROMIUM_PATH points elsewhere. Its headless
 * shell (`chromium-headless-shell`, the same Blink and V8 without the desktop browser around them,
 * and what Playwright itself runs headless by default) is preferred when installed: a browser
 * test file then takes about half the CPU (20 s instead of 40 for the booking page's).
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file)) ??
  '/usr/bin/chromium';

/** `false` when the browser tests can run, else the reason they are skipped (node:test prints it). */
export const skipWithoutChromium: string | false = existsSync(CHROMIUM_PATH)
  ? false
  : `no Chromium at ${CHROMIUM_PATH}: browser tests skipped (install it with: apt-get install -y chromium-headless-shell, or chromium)`;

export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 1,
  isMobile: true,
  hasTouch: true,
};
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

/** The date `days` from now in `timezone`, by the real clock: what a page computes as "today" there. */
export function dateIn(timezone: string, days = 0): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(Date.now() + days * 86_400_000));
}

export interface PagesApp {
  t: TestApp;
  baseUrl: string;
}

/** The real service on a real port: the browser talks to it as a guest would. */
export async function startPagesApp(hotels: HotelDef[], env?: Record<string, string>): Promise<PagesApp> {
  const t = await startTestApp({ hotels, ...(env ? { env } : {}) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, baseUrl: `http://127.0.0.1:${port}` };
}

/**
 * Features switched off in the full browser. Chromium reads only the last `--disable-features`,
 * so this repeats the list playwright-core 1.65 passes (chromiumSwitches) before adding two: the
 * omnibox pop-ups, web pages of their own that the desktop browser preloads in a renderer for
 * every window, that is for every browser context a test opens (about 1.5 CPU s each, never shown
 * headless). The headless shell has neither.
 */
const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
];

/** Headless Chromium with a fresh profile, and nothing that phones home. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
    ],
  });
}

export interface Watched {
  page: Page;
  /** Every request that left the service's origin (must stay empty: no third party, ever). */
  foreignRequests: string[];
  /** Uncaught errors and CSP violations reported by the page. */
  errors: string[];
}

/** A page in a fresh context (fresh storage), watched for foreign requests and script errors. */
export async function openPage(
  browser: Browser,
  baseUrl: string,
  options: BrowserContextOptions & { locale?: string } = {},
): Promise<Watched> {
  const context = await browser.newContext({ locale: 'en-GB', ...options });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const watched: Watched = { page, foreignRequests: [], errors: [] };
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${baseUrl}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      watched.foreignRequests.push(url);
    }
  });
  page.on('pageerror', (error) => watched.errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused/.test(message.text())) {
      watched.errors.push(message.text());
    }
  });
  return watched;
}

const axeSource: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** axe-core's serious and critical findings on the page as it is now (evaluated past the CSP). */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // biome-ignore lint/suspicious/noExplicitAny: axe is a page global once injected
  if (!(await page.evaluate(() => typeof (globalThis as any).axe === 'object')))
    await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected as a global by the line above
    const result = await (globalThis as any).axe.run({ resultTypes: ['violations'] });
    return result.violations.map((v: { id: string; impact: string; nodes: { target: string[] }[] }) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations
    .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v: { id: string; impact: string; targets: string[] }) =>
        `${v.impact} ${v.id}: ${v.targets.join(', ')}`,
    );
}

/**
 * Words a page shows where a value was missing: `null`, `undefined` or `NaN` in its text or in
 * what it says to screen readers (the DOM writes a `null` child as the word "null"). Each finding
 * with a little of the text around it.
 */
export async function brokenText(page: Page): Promise<string[]> {
  // A string, run in the page: this file is compiled without the DOM's types.
  const said: string = await page.evaluate(`[
    document.title,
    document.body.innerText,
    ...[...document.querySelectorAll('[aria-label], [alt], [title], [placeholder]')].flatMap((el) =>
      ['aria-label', 'alt', 'title', 'placeholder'].map((name) => el.getAttribute(name) ?? ''),
    ),
  ].join('\\n')`);
  return [...said.matchAll(/\b(null|undefined|NaN)\b/g)].map((m) =>
    said.slice(Math.max(0, m.index - 30), m.index + 40).replace(/\s+/g, ' '),
  );
}

/** Fails when the page shows `null`, `undefined` or `NaN` (see brokenText). */
export async function assertNoBrokenText(page: Page, screen: string): Promise<void> {
  assert.deepEqual(await brokenText(page), [], `"${screen}" shows a missing value as text`);
}

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url);

/**
 * Saves docs/screenshots/<name>.png when UPDATE_SCREENSHOTS=1 (kept in the repo for the README).
 * Every screen worth a picture is first checked for missing values shown as text, in every run.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  await assertNoBrokenText(page, name);
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}
