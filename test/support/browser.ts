// Headless Chromium (Debian's package) driven by playwright-core, for tests of the pages we
// serve. Playwright gives every launch a fresh temporary profile. The flags keep Chromium off
// the network: this machine refuses outside connections, and its background services would
// otherwise try them at every start.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { DASHBOARD_DIR } from '../../src/http/dashboard.ts';
import { getTestApp, type TestApp } from './app.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
    ],
  });
}

/** Fails a dashboard suite at once, saying what to do, when the build or Chromium is missing. */
export function requireBuiltDashboard(): void {
  if (!existsSync(join(DASHBOARD_DIR, 'index.html'))) {
    throw new Error(
      `The dashboard is not built (${DASHBOARD_DIR} has no index.html): run \`npm run build\` before the tests.`,
    );
  }
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`${CHROMIUM_PATH} is missing: install Debian's chromium package (apt-get install -y chromium).`);
}

/** Collects a page's console errors and uncaught exceptions (CSP refusals included) into `errors`. */
export function collectPageErrors(page: Page, errors: string[]): void {
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
}

/**
 * Chromium with one page (1280x900, 10 s default timeout) whose console errors and uncaught
 * exceptions go to `errors`: what every dashboard suite starts with. The browser speaks American
 * English unless told otherwise (the dashboard takes its language from it, and the suites read
 * English words); the language tests pass their own.
 */
export async function openDashboardBrowser(
  errors: string[],
  locale = 'en-US',
): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  collectPageErrors(page, errors);
  return { browser, page };
}

/** Signs the page in with an API key, as a person would, and waits for the codes page it lands on. */
export async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(`${url}/dashboard/`);
  await page.fill('#api-key', key);
  await page.click('#api-key-form button[type=submit]');
  await page.getByRole('heading', { level: 1, name: 'Codes', exact: true }).waitFor();
}

/** Signs the page in as a person with email and password, and waits for the codes page. */
export async function signInWithPassword(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(`${url}/dashboard/`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.click('#password-form button[type=submit]');
  await page.getByRole('heading', { level: 1, name: 'Codes', exact: true }).waitFor();
}

export interface DashboardSuite {
  app: TestApp;
  /** An API key (every scope) of the suite's own account. */
  key: string;
  page: Page;
  /** The page's console errors and uncaught exceptions. */
  errors: string[];
}

/**
 * What a dashboard suite starts and ends with, set up in beforeAll and closed in afterAll: the
 * app, a key of its own account, and Chromium with one page collecting its errors. The fields
 * are there once the suite's tests run. The browser's language is `locale` (American English unless told).
 */
export function dashboardSuite(accountName: string, locale?: string): DashboardSuite {
  const suite = { errors: [] as string[] } as DashboardSuite;
  let browser: Browser | undefined;
  beforeAll(async () => {
    requireBuiltDashboard();
    suite.app = await getTestApp();
    suite.key = await suite.app.newAccountKey(accountName);
    let page: Page;
    ({ browser, page } = await openDashboardBrowser(suite.errors, locale));
    suite.page = page;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await suite.app?.close();
  });
  return suite;
}
