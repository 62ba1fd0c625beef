// Uploads from the code editor in headless Chromium, signed in with an API key (the case an
// <img src="/v1/images/…"> could not show: it would send no Authorization header): a logo made
// here is uploaded, shown, saved as the code's logo_image_id, and the code's PNG still decodes;
// a file too large and one that is no image are refused on the field, saving nothing; a business
// card's photo is uploaded and shown on the hosted page; axe finds nothing on the editor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.ts';
import { dashboardSuite, signIn } from '../support/browser.ts';
import { jsqrRead, zxingRead } from '../support/readers.ts';
import { jpegOf, pngOf } from '../support/upload-fixtures.ts';

const suite = dashboardSuite('dashboard-uploads');

/** The file input's field: its problems, and whether the input points at them. */
async function fieldProblem(inputId: string): Promise<{ text: string; invalid: string | null; tied: boolean }> {
  const { page } = suite;
  const messages = page.locator(`.field:has(#${inputId}) .field-messages`);
  await messages.waitFor();
  const input = page.locator(`#${inputId}`);
  const describedBy = (await input.getAttribute('aria-describedby')) ?? '';
  return {
    text: await messages.innerText(),
    invalid: await input.getAttribute('aria-invalid'),
    tied: describedBy.split(' ').includes((await messages.getAttribute('id')) ?? '-'),
  };
}

describe('uploads in the code editor', () => {
  beforeAll(async () => {
    await signIn(suite.page, suite.app.url, suite.key);
  });
  afterAll(() => expect(suite.errors).toEqual([]));

  /** The console errors a test caused, taken out of the suite's list (which must end empty). */
  const takeErrors = () => suite.errors.splice(0);

  it('uploads a logo, shows it, saves it as logo_image_id, and the code still scans', async () => {
    const { app, key, page } = suite;
    await page.goto(`${app.url}/dashboard/codes/new`);
    await page.fill('#code-content', 'https://example.com/with-uploaded-logo');
    await page.setInputFiles('#design-logoImageId', { name: 'logo.png', mimeType: 'image/png', buffer: pngOf(96) });
    const thumbnail = page.locator('.field:has(#design-logoImageId) .uploaded-image img');
    await thumbnail.waitFor();
    expect(await thumbnail.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await page.locator('#design-logoUrl').isDisabled()).toBe(true);
    // The preview draws with the logo before anything is saved.
    await page.locator('.preview figcaption', { hasText: 'Live preview' }).waitFor();
    expect(await axeViolations(page)).toEqual({});

    await page.click('button[type=submit]');
    await page.getByText('Created “').waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const code = (await app.request('GET', `/v1/codes/${id}`, { key })).body;
    const images = (await app.request('GET', '/v1/images', { key })).body.data;
    expect(images.map((image: { id: string }) => image.id)).toContain(code.design.logo_image_id);
    expect(code.design).toMatchObject({ logo_url: null, error_correction: 'H' });

    const res = await fetch(`${app.url}/v1/codes/${id}/image?format=png&size=600`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const png = new Uint8Array(await res.arrayBuffer());
    expect(jsqrRead(png)).toBe(code.scan_url);
    expect(await zxingRead(png)).toBe(code.scan_url);

    // Shown again from the saved code; removing it and saving takes the logo off.
    await page.reload();
    await thumbnail.waitFor();
    await page.click('.field:has(#design-logoImageId) .uploaded-image button');
    expect(await page.locator('#design-logoUrl').isDisabled()).toBe(false);
    await page.click('button[type=submit]');
    await page.getByText('Saved.').waitFor();
    expect((await app.request('GET', `/v1/codes/${id}`, { key })).body.design.logo_image_id).toBeNull();

    // An earlier upload is offered again, and picking it sets it.
    await page.selectOption('#design-logoImageId-earlier', code.design.logo_image_id);
    await thumbnail.waitFor();
  });

  it('refuses a file too large and one that is no image on the field, and saves nothing', async () => {
    const { app, key, page } = suite;
    const before = (await app.request('GET', '/v1/images', { key })).body.data.length;
    await page.goto(`${app.url}/dashboard/codes/new`);
    await page.fill('#code-content', 'https://example.com/refused-logo');

    await page.setInputFiles('#design-logoImageId', {
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.concat([pngOf(48), Buffer.alloc(6 * 1024 * 1024)]),
    });
    const large = await fieldProblem('design-logoImageId');
    expect(large).toMatchObject({ text: expect.stringContaining('larger than 5 MB'), invalid: 'true', tied: true });

    await page.setInputFiles('#design-logoImageId', {
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('these are words, not pixels'),
    });
    await page.locator('.field:has(#design-logoImageId) .field-messages', { hasNotText: 'larger' }).waitFor();
    const notImage = await fieldProblem('design-logoImageId');
    expect(notImage.invalid).toBe('true');
    expect(notImage.tied).toBe(true);
    expect(await page.locator('.field:has(#design-logoImageId) .uploaded-image').count()).toBe(0);
    expect(await axeViolations(page)).toEqual({});
    expect((await app.request('GET', '/v1/images', { key })).body.data.length).toBe(before);
    // Chromium logs each refused request; nothing else went wrong.
    expect(takeErrors()).toEqual([
      'Failed to load resource: the server responded with a status of 413 (Payload Too Large)',
      'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);
  });

  it("uploads a business card's photo that the hosted page shows", async () => {
    const { app, key, page } = suite;
    const code = (await app.request('POST', '/v1/codes', { key, body: { content: 'https://example.com/card' } })).body;
    await page.goto(`${app.url}/dashboard/codes/${code.id}`);
    await page.locator('#code-page').waitFor();
    expect(await page.locator('#code-page-photo').count()).toBe(0);
    await page.selectOption('#code-page-template', 'business_card');
    await page.setInputFiles('#code-page-photo', { name: 'me.jpg', mimeType: 'image/jpeg', buffer: jpegOf(300) });
    await page.locator('.field:has(#code-page-photo) .uploaded-image img').waitFor();
    const photoId = JSON.parse(await page.inputValue('#code-page')).photo_image_id;
    expect(photoId).toMatch(/^img_/);
    expect(await axeViolations(page)).toEqual({});
    await page.click('button[type=submit]');
    await page.getByText('Saved.').waitFor();
    expect((await app.request('GET', `/v1/codes/${code.id}`, { key })).body.page.photo_image_id).toBe(photoId);

    const failed: string[] = [];
    page.on('console', (m) => m.type() === 'error' && failed.push(new URL(m.location().url).pathname));
    await page.goto(code.scan_url);
    const photo = page.locator('img.photo');
    await photo.waitFor();
    await page.waitForFunction(() => (document.querySelector('img.photo') as HTMLImageElement | null)?.complete);
    expect(await photo.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([256, 256]);
    // The hosted page names no icon, so Chromium asks for /favicon.ico, which the service does not have.
    await expect.poll(() => failed).toEqual(['/favicon.ico']);
    takeErrors();
  });
});
