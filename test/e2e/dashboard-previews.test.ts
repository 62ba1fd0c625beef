// The code editor's social preview fields in headless Chromium: an http image is refused by name
// and nothing is saved; a title, description and image typed in are saved (REST agrees and a
// crawler gets the card), shown again on reload, and emptied fields remove the preview.
import { describe, expect, it } from 'vitest';
import { dashboardSuite, signIn } from '../support/browser.ts';

const suite = dashboardSuite('dashboard-previews');

describe('the social preview in the code editor', () => {
  it('saves, shows and removes it, refusing an http image by name', async () => {
    const { app, key, page, errors: pageErrors } = suite;
    const code = (await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/card' } })).body;
    await signIn(page, app.url, key);
    await page.locator(`tr[data-code-id="${code.id}"]`).waitFor();

    await page.goto(`${app.url}/dashboard/codes/${code.id}`);
    await page.locator('#code-preview-title').waitFor();
    await page.fill('#code-preview-title', 'Spring sale');
    await page.fill('#code-preview-image', 'http://cdn.example.com/a.png');
    await page.click('button[type=submit]');
    await page.locator('.field:has(#code-preview-image) .field-messages', { hasText: 'https://' }).waitFor();
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.preview).toBeNull();

    await page.fill('#code-preview-image', 'https://cdn.example.com/a.png');
    await page.fill('#code-preview-description', 'Twenty percent off.');
    await page.click('button[type=submit]');
    await page.getByText('Saved.').waitFor();
    const saved = (await app.request('GET', `/v1/codes/${code.id}`, { key })).body;
    expect(saved.preview).toEqual({
      title: 'Spring sale',
      description: 'Twenty percent off.',
      image_url: 'https://cdn.example.com/a.png',
    });
    const card = await fetch(saved.scan_url, { headers: { 'user-agent': 'Twitterbot/1.0' } });
    expect(await card.text()).toContain('<meta property="og:title" content="Spring sale">');

    await page.reload();
    await page.locator('#code-preview-title').waitFor();
    expect(await page.inputValue('#code-preview-description')).toBe('Twenty percent off.');

    for (const id of ['#code-preview-title', '#code-preview-description', '#code-preview-image'])
      await page.fill(id, '');
    await page.click('button[type=submit]');
    await page.getByText('Saved.').waitFor();
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.preview).toBeNull();
    expect(pageErrors).toEqual([]);
  });
});
