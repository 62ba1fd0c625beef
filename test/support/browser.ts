// Headless Chromium (Debian's package) driven by playwright-core, for tests of the pages we
// serve. Playwright gives every launch a fresh temporary profile. The flags keep Chromium off
// the network: this machine refuses outside connections, and its background services would
// otherwise try them at every start.
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
