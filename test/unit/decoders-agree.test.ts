// Every payload reads the same in zbar, zxing-cpp (zxing-wasm) and jsQR: a corpus of texts in
// several scripts, vCards with non-ASCII names and Wi-Fi codes with escapes, rendered as the render
// workers render them (renderImage) in every format, at the smallest size the API takes, between
// two whole scales and at the default size, each read by all three to exactly its payload. Without
// a UTF-8 ECI, zbar reads the UTF-8 bytes of `Café` as Shift-JIS (`Caf矇`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadFor, staticContentSchemas, type StaticType } from '../../src/modules/codes/content-types.ts';
import type { ModuleStyle } from '../../src/modules/images/design.ts';
import { svgToPng } from '../../src/modules/images/raster.ts';
import { renderImage, type ImageFormat } from '../../src/modules/images/render-work.ts';
import { rasterisePdf, requireDecoderTools, scratchDir, zbarRead } from '../support/decoders.ts';
import { renderDesign } from '../support/designs.ts';
import { jsqrRead, zxingRead } from '../support/readers.ts';
import { readFile } from 'node:fs/promises';

/** The payload of static content, parsed as the API parses it. */
const payload = <T extends StaticType>(type: T, content: unknown) =>
  payloadFor(type, staticContentSchemas[type].parse(content) as never);

const CORPUS: Record<string, string> = {
  'Café, as zbar misread it (Caf矇)': 'Café',
  'Grüße, as zbar misread it (Grﾃｼﾃ歹)': 'Grüße',
  'Latin accents': 'Café crème, naïve façade, Ångström, ø',
  'German ß and umlauts': 'Grüße aus Köln: Straße, Größe, Tschüß',
  Cyrillic: 'Привет, мир! Съешь же ещё этих мягких французских булок',
  Greek: 'Γειά σου Κόσμε· ξεσκεπάζω την ψυχοφθόρα βδελυγμία',
  'CJK (Japanese and Chinese)': '東京タワーへようこそ。你好，世界！',
  'emoji, with modifiers and joiners': 'Party 🎉 thumbs 👍🏽 family 👨‍👩‍👧 flag 🇩🇪',
  'Arabic and Devanagari': 'مرحبا بالعالم — नमस्ते दुनिया',
  'URL with an IDN host, Unicode path and query': 'https://bücher.example/straße?q=grüße&x=日本',
  'the same URL in its ASCII form (punycode, percent-encoded)':
    'https://xn--bcher-kva.example/stra%C3%9Fe?q=gr%C3%BC%C3%9Fe&x=%E6%97%A5%E6%9C%AC',
  'vCard of Jürgen Müller': payload('vcard', { first_name: 'Jürgen', last_name: 'Müller', phones: ['+49 221 123456'] }),
  'vCard with escapes in German': payload('vcard', {
    first_name: 'Jürgen',
    last_name: 'Müller',
    organization: 'Bäckerei Groß; Köln, GmbH',
    note: 'Grüße\nTschüß',
  }),
  'vCard in Cyrillic and Japanese': payload('vcard', {
    first_name: 'Анна',
    last_name: 'Каренина',
    organization: '株式会社テスト',
    address: { street: 'Тверская ул., 1', city: 'Москва', country: 'Россия' },
  }),
  'Wi-Fi, SSID Café "Guest" with WPA': payload('wifi', { ssid: 'Café "Guest"', password: 'pässwört;1,2:3\\' }),
  'Wi-Fi, SSID Café "Guest" open': payload('wifi', { ssid: 'Café "Guest"', encryption: 'nopass' }),
  'Wi-Fi, SSID in Greek with escapes, hidden': payload('wifi', {
    ssid: 'Καφέ;Wi,Fi:"5G"',
    password: 'κωδικός πρόσβασης',
    hidden: true,
  }),
};

const STYLES: ModuleStyle[] = ['square', 'dots', 'rounded', 'branded'];
/**
 * What is read of each payload: the served PNG at the smallest size the image query takes (drawn
 * at 4 px a module), between two whole scales and at the default size; the SVG at the default size
 * (a vector: the size only scales it) and the PDF at the smallest, rasterised at 72 dpi by poppler.
 */
const IMAGES: { format: ImageFormat; size: number }[] = [
  { format: 'png', size: 64 },
  { format: 'png', size: 333 },
  { format: 'png', size: 512 },
  { format: 'svg', size: 512 },
  { format: 'pdf', size: 64 },
];

let files: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  await requireDecoderTools();
  files = await scratchDir();
});
afterAll(() => files?.remove());

/** The PNG files of one payload's IMAGES: served PNGs as they are, SVG and PDF rasterised. */
async function images(text: string, style: ModuleStyle, index: number): Promise<Record<string, string>> {
  const design = renderDesign({ style });
  const out: Record<string, string> = {};
  for (const { format, size } of IMAGES) {
    const image = await renderImage({ kind: 'image', payload: text, design, logo: null, format, size, effort: 'fast' });
    const name = `${index}-${format}-${size}`;
    const label = `${format.toUpperCase()} at ${size}`;
    if (format === 'png') out[label] = await files.write(`${name}.png`, image.bytes);
    // SVG as a browser draws it: smooth edges, at the width the SVG says.
    if (format === 'svg') {
      out[label] = await files.write(`${name}.png`, svgToPng(Buffer.from(image.bytes).toString(), image.width));
    }
    if (format === 'pdf') out[label] = await rasterisePdf(await files.write(`${name}.pdf`, image.bytes));
  }
  return out;
}

// Concurrent: while one case waits for zbar or poppler, another renders.
describe.concurrent('zbar, zxing-cpp and jsQR read every payload exactly', () => {
  Object.entries(CORPUS).forEach(([name, text], index) => {
    const style = STYLES[index % STYLES.length]!;
    // A longer timeout than the suite's: on a shared 2-core machine the 5 renders and 15 reads may queue.
    it(`${name} (${style})`, { timeout: 90_000 }, async () => {
      const byLabel = await images(text, style, index);
      const zbar = await zbarRead(Object.values(byLabel), text);
      const misread: string[] = [];
      for (const [i, [label, file]] of Object.entries(byLabel).entries()) {
        const png = await readFile(file);
        const reads = { zbar: zbar[i], 'zxing-cpp': await zxingRead(png), jsQR: jsqrRead(png) };
        for (const [decoder, read] of Object.entries(reads)) {
          if (read !== text) misread.push(`${label}, ${decoder}: ${JSON.stringify(read)}`);
        }
      }
      expect(misread).toEqual([]);
    });
  });
});
