// /docs in a real browser: Redoc loads from this server alone and shows every operation of the
// document. Redoc's footer links a logo on its CDN; the page's policy must block that request.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';
import { collectPageErrors, launchChromium } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  app = await getTestApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('GET /docs', () => {
  it.each(['v1', 'v2'])(
    'renders every operation of the %s document; its policy blocks every other origin',
    async (version) => {
      const document = (await app.request('GET', `/${version}/openapi.json`)).body;
      const operationIds = Object.values<Record<string, { operationId?: string }>>(document.paths).flatMap((item) =>
        Object.values(item).flatMap((op) => (op && typeof op === 'object' && op.operationId ? [op.operationId] : [])),
      );
      expect(operationIds.length).toBeGreaterThan(5);

      const page = await browser.newPage();
      const pageErrors: string[] = [];
      collectPageErrors(page, pageErrors);
      const isForeign = (url: string) => !url.startsWith(app.url) && !/^(data|blob):/.test(url);
      const foreign: string[] = [];
      const blockedByPolicy: string[] = [];
      page.on('request', (request) => {
        if (isForeign(request.url())) foreign.push(request.url());
      });
      page.on('requestfailed', (request) => {
        if (isForeign(request.url()) && request.failure()?.errorText === 'csp') blockedByPolicy.push(request.url());
      });
      await page.goto(`${app.url}/docs?version=${version}`);
      // Redoc gives each operation an element whose id is operation/<operationId>.
      for (const id of operationIds)
        await page.locator(`[id="operation/${id}"]`).waitFor({ state: 'attached', timeout: 15_000 });
      await expect(page.locator('h1').first().textContent()).resolves.toContain('QR code service API');
      // The one foreign request is Redoc's footer logo, and the policy refused it; the console
      // has nothing but that refusal.
      expect(foreign).toEqual(['https://cdn.redoc.ly/redoc/logo-mini.svg']);
      expect(blockedByPolicy).toEqual(foreign);
      expect(pageErrors.filter((text) => !text.includes('cdn.redoc.ly'))).toEqual([]);
      await page.screenshot({ path: `test-results/docs-${version}.png` });
      await page.close();
    },
  );
});

describe('GET /graphql in a browser (GraphiQL, outside production)', () => {
  it('renders the editor from its own files under its policy, which lets the page query /graphql by key', async () => {
    const key = await app.newAccountKey('graphiql-browser');
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    collectPageErrors(page, pageErrors);
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(app.url) && !/^(data|blob):/.test(request.url())) foreign.push(request.url());
    });
    await page.goto(`${app.url}/graphql`);
    await page.locator('.graphiql-container').first().waitFor({ timeout: 20_000 });
    // What GraphiQL sends once a key is set in its headers tab: a POST to this origin.
    await page.evaluate(async (bearer) => {
      const res = await fetch('/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: '{"query":"{ codes(first: 1) { edges { cursor } } }"}',
      });
      if (res.status !== 200) throw new Error(`GraphQL answered ${res.status}`);
    }, key);
    expect(foreign).toEqual([]);
    // GraphiQL asks for the schema as it loads, before a key is set: those 401s are the only
    // errors (a refusal by the page's policy would show here too).
    expect(pageErrors.filter((text) => !text.includes('status of 401 (Unauthorized)'))).toEqual([]);
    await page.screenshot({ path: 'test-results/graphiql.png' });
    await page.close();
  });
});
