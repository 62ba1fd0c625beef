// Creates a branded code that sends German scans elsewhere, simulates a scan, and prints the
// image's size. Run: QR_BASE_URL=http://localhost:3000 QR_API_KEY=qrk_… npx tsx examples/create-and-route.ts
import { createQrClient, unwrap } from '../src/index.ts';

const qr = createQrClient({
  baseUrl: process.env.QR_BASE_URL ?? 'http://localhost:3000',
  apiKey: process.env.QR_API_KEY ?? '',
});

const code = await unwrap(
  qr.api.POST('/codes', {
    body: {
      content: 'https://example.com/spring',
      design: { style: 'branded', fg_color: '#1a73e8' },
      routing: { rules: [{ condition: 'country:DE', destination: 'https://example.de/fruehling' }] },
    },
  }),
);
console.log('created', code.id, 'scan URL', code.scan_url);

const decision = await unwrap(
  qr.api.POST('/codes/{id}/routing/resolve', { params: { path: { id: code.id } }, body: { country: 'DE' } }),
);
console.log('a scan from Germany goes to', decision.destination);

const image = await qr.api.GET('/codes/{id}/image', {
  params: { path: { id: code.id }, query: { format: 'png', size: 512 } },
  parseAs: 'arrayBuffer',
});
console.log('PNG bytes', (image.data as ArrayBuffer | undefined)?.byteLength);
