import { Resvg } from '@resvg/resvg-js';
import jsQRModule from 'jsqr';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import {
  MAX_PAYLOAD_BYTES,
  STATIC_TYPES,
  isStaticType,
  payloadFor,
  staticContentSchemas,
  utf8ByteLength,
  type StaticContent,
  type StaticType,
} from '../../src/modules/codes/content-types.ts';

// jsqr is CommonJS with `exports.default`: under NodeNext the default import is the whole module.
const jsQR = jsQRModule.default;

/** Validates like the API does, then builds the payload. */
function build<T extends StaticType>(type: T, input: unknown): string {
  const content = staticContentSchemas[type].parse(input) as StaticContent[T];
  return payloadFor(type, content);
}

/** The first issue of a rejected input. */
function firstIssue(type: StaticType, input: unknown) {
  const result = staticContentSchemas[type].safeParse(input);
  expect(result.success).toBe(false);
  const issue = result.error?.issues[0];
  if (!issue) throw new Error('expected an issue');
  return issue;
}

function expectRejected(type: StaticType, input: unknown, path: PropertyKey[], message: string): void {
  const issue = firstIssue(type, input);
  expect({ path: issue.path, message: issue.message }).toEqual({ path, message });
}

/** Renders the payload as a PNG QR code, rasterises it to RGBA and decodes it again. */
async function scan(payload: string): Promise<{ text: string; bytes: Buffer }> {
  const png = await QRCode.toBuffer(payload, { type: 'png', width: 400, errorCorrectionLevel: 'M' });
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">' +
    `<image href="data:image/png;base64,${png.toString('base64')}" width="400" height="400"/></svg>`;
  const image = new Resvg(svg).render();
  const decoded = jsQR(new Uint8ClampedArray(image.pixels), image.width, image.height);
  if (!decoded) throw new Error('QR code could not be decoded');
  return { text: decoded.data, bytes: Buffer.from(decoded.binaryData) };
}

describe('static types', () => {
  it('has a schema for every static type and recognises the type names', () => {
    expect(Object.keys(staticContentSchemas).sort()).toEqual([...STATIC_TYPES].sort());
    expect(STATIC_TYPES.every(isStaticType)).toBe(true);
    expect(isStaticType('url')).toBe(false);
    expect(isStaticType(undefined)).toBe(false);
    expect(MAX_PAYLOAD_BYTES).toBe(2000);
  });

  it('rejects unknown fields for every type', () => {
    for (const type of STATIC_TYPES) {
      const issue = firstIssue(type, { surprise: 1 });
      const unknown = staticContentSchemas[type]
        .safeParse({ surprise: 1 })
        .error?.issues.find((i) => i.code === 'unrecognized_keys');
      expect(issue).toBeDefined();
      expect(unknown).toMatchObject({ code: 'unrecognized_keys', keys: ['surprise'], path: [] });
    }
  });

  it('rejects content that is not an object', () => {
    expect(firstIssue('text', 'hello').path).toEqual([]);
    expect(firstIssue('geo', null).path).toEqual([]);
  });
});

describe('text', () => {
  it('encodes the text itself, untouched', () => {
    expect(build('text', { text: 'Hello, world; ☕' })).toBe('Hello, world; ☕');
    expect(build('text', { text: '  two\n lines ' })).toBe('  two\n lines ');
  });

  it('rejects empty, missing, non-string and overlong text', () => {
    expectRejected('text', { text: '' }, ['text'], 'must not be empty');
    expectRejected('text', {}, ['text'], 'is required');
    expectRejected('text', { text: 42 }, ['text'], 'must be a string');
    expectRejected('text', { text: 'a'.repeat(2001) }, ['text'], 'must be at most 2000 characters');
  });

  it('rejects text whose UTF-8 bytes do not fit in a QR code', () => {
    expect(build('text', { text: 'a'.repeat(2000) })).toHaveLength(2000);
    // 700 × 3 bytes = 2100 bytes, though only 700 characters.
    expectRejected('text', { text: '☕'.repeat(700) }, [], 'is too long to fit in a QR code');
  });
});

describe('email', () => {
  it('builds a bare mailto: link', () => {
    expect(build('email', { to: 'info@example.com' })).toBe('mailto:info@example.com');
  });

  it('percent-encodes subject and body per RFC 6068 (space as %20, line breaks as %0D%0A)', () => {
    expect(
      build('email', {
        to: ' ada+qr@example.com ',
        subject: 'Hello & welcome',
        body: 'Line 1\nLine 2: 100% = ok?',
      }),
    ).toBe(
      'mailto:ada+qr@example.com?subject=Hello%20%26%20welcome&body=Line%201%0D%0ALine%202%3A%20100%25%20%3D%20ok%3F',
    );
    expect(build('email', { to: 'a@example.com', subject: 'Café Straße ☕' })).toBe(
      'mailto:a@example.com?subject=Caf%C3%A9%20Stra%C3%9Fe%20%E2%98%95',
    );
    expect(build('email', { to: 'a@example.com', subject: '', body: 'x+y#z' })).toBe(
      'mailto:a@example.com?body=x%2By%23z',
    );
  });

  it('rejects bad addresses and overlong fields', () => {
    expectRejected('email', { to: 'not an email' }, ['to'], 'must be an email address such as name@example.com');
    expectRejected(
      'email',
      { to: 'a@b.com?cc=evil@x.com' },
      ['to'],
      'must be an email address such as name@example.com',
    );
    expectRejected('email', {}, ['to'], 'is required');
    expectRejected('email', { to: '  ' }, ['to'], 'must not be empty');
    expectRejected(
      'email',
      { to: 'a@example.com', subject: 's'.repeat(256) },
      ['subject'],
      'must be at most 255 characters',
    );
    expectRejected('email', { to: 'a@example.com', body: 3 }, ['body'], 'must be a string');
  });
});

describe('phone', () => {
  it('builds tel: with separators stripped', () => {
    expect(build('phone', { number: '+49 (30) 123-456' })).toBe('tel:+4930123456');
    expect(build('phone', { number: '030 123456' })).toBe('tel:030123456');
    expect(staticContentSchemas.phone.parse({ number: ' +1 555-0100 ' })).toEqual({ number: '+15550100' });
  });

  it('rejects letters, a + in the middle and too few or too many digits', () => {
    const format =
      'must be a phone number: digits with an optional leading +; spaces, dashes and parentheses are allowed';
    expectRejected('phone', { number: 'call me' }, ['number'], format);
    expectRejected('phone', { number: '49+30' }, ['number'], format);
    expectRejected('phone', { number: '1.2.3' }, ['number'], format);
    expectRejected('phone', { number: '12' }, ['number'], 'must have between 3 and 15 digits');
    expectRejected('phone', { number: '+1234567890123456' }, ['number'], 'must have between 3 and 15 digits');
    expectRejected('phone', { number: '1'.repeat(33) }, ['number'], 'must be at most 32 characters');
    expectRejected('phone', {}, ['number'], 'is required');
  });
});

describe('sms', () => {
  it('builds SMSTO:number:body, the body unescaped', () => {
    expect(build('sms', { number: '+49 30 123456', body: 'Running late: 10 min; sorry, ☕' })).toBe(
      'SMSTO:+4930123456:Running late: 10 min; sorry, ☕',
    );
    expect(build('sms', { number: '+49 30 123456' })).toBe('SMSTO:+4930123456');
    expect(build('sms', { number: '+49 30 123456', body: '' })).toBe('SMSTO:+4930123456');
  });

  it('rejects a bad number or an overlong body', () => {
    const issue = firstIssue('sms', { number: 'x' });
    expect(issue.path).toEqual(['number']);
    expect(issue.message).toMatch(/^must be a phone number: digits with an optional leading \+/);
    expectRejected('sms', { number: '123', body: 'b'.repeat(1001) }, ['body'], 'must be at most 1000 characters');
  });
});

describe('wifi', () => {
  it('defaults to WPA and builds the ZXing format', () => {
    expect(staticContentSchemas.wifi.parse({ ssid: 'Home', password: 'correct horse' })).toEqual({
      ssid: 'Home',
      password: 'correct horse',
      encryption: 'WPA',
    });
    expect(build('wifi', { ssid: 'Home', password: 'correct horse' })).toBe('WIFI:T:WPA;S:Home;P:correct horse;;');
  });

  it('writes H:true only for hidden networks and leaves P out for open ones', () => {
    expect(build('wifi', { ssid: 'Old', password: 'abcde', encryption: 'WEP', hidden: true })).toBe(
      'WIFI:T:WEP;S:Old;P:abcde;H:true;;',
    );
    expect(build('wifi', { ssid: 'Guest', encryption: 'nopass', hidden: false })).toBe('WIFI:T:nopass;S:Guest;;');
  });

  it('backslash-escapes \\ ; , : and " in SSID and password', () => {
    expect(build('wifi', { ssid: 'My;Net,work:"5G"\\', password: 'p\\a;s,s:w"rd' })).toBe(
      String.raw`WIFI:T:WPA;S:My\;Net\,work\:\"5G\"\\;P:p\\a\;s\,s\:w\"rd;;`,
    );
  });

  it('keeps non-ASCII as is', () => {
    expect(build('wifi', { ssid: 'Café Straße ☕', password: 'Grüße: ☕;,' })).toBe(
      String.raw`WIFI:T:WPA;S:Café Straße ☕;P:Grüße\: ☕\;\,;;`,
    );
  });

  it('accepts a 64-hex-digit WPA key', () => {
    const key = 'ab'.repeat(32);
    expect(build('wifi', { ssid: 'Hex', password: key })).toBe(`WIFI:T:WPA;S:Hex;P:${key};;`);
  });

  it('checks the password against the encryption', () => {
    expectRejected('wifi', { ssid: 'Home' }, ['password'], 'is required when encryption is WPA');
    expectRejected(
      'wifi',
      { ssid: 'Home', encryption: 'WEP', password: '' },
      ['password'],
      'is required when encryption is WEP',
    );
    expectRejected(
      'wifi',
      { ssid: 'Home', password: 'short' },
      ['password'],
      'must be 8 to 63 characters (or 64 hex digits) for WPA',
    );
    expectRejected(
      'wifi',
      { ssid: 'Home', password: 'x'.repeat(64) },
      ['password'],
      'must be 8 to 63 characters (or 64 hex digits) for WPA',
    );
    expectRejected(
      'wifi',
      { ssid: 'Home', encryption: 'nopass', password: 'secret12' },
      ['password'],
      'must be left out when encryption is nopass',
    );
  });

  it('rejects bad SSIDs, encryptions and hidden flags', () => {
    const ok = { password: 'password1' };
    expectRejected('wifi', { ...ok, ssid: '' }, ['ssid'], 'must not be empty');
    expectRejected('wifi', { ...ok }, ['ssid'], 'is required');
    // 11 characters but 33 bytes.
    expectRejected('wifi', { ...ok, ssid: '☕'.repeat(11) }, ['ssid'], 'must be at most 32 bytes (UTF-8)');
    expectRejected('wifi', { ...ok, ssid: 's'.repeat(33) }, ['ssid'], 'must be at most 32 characters');
    expectRejected(
      'wifi',
      { ...ok, ssid: 'Home', encryption: 'WPA2' },
      ['encryption'],
      'must be one of WPA, WEP, nopass',
    );
    expectRejected('wifi', { ...ok, ssid: 'Home', hidden: 'yes' }, ['hidden'], 'must be true or false');
  });
});

describe('vcard', () => {
  it('builds a minimal vCard 3.0 with CRLF line endings', () => {
    expect(build('vcard', { first_name: 'Ada' })).toBe(
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:;Ada;;;\r\nFN:Ada\r\nEND:VCARD\r\n',
    );
  });

  it('writes every field in order', () => {
    expect(
      build('vcard', {
        first_name: ' Ada ',
        last_name: 'Lovelace',
        organization: 'Analytical Engines Ltd',
        title: 'Programmer',
        phones: ['+44 20 7946 0000', '020-7946-0001'],
        emails: ['ada@example.com', 'ada@example.org'],
        url: 'https://example.com/ada',
        address: { street: "12 St James's Square", city: 'London', postal_code: 'SW1Y 4JH', country: 'United Kingdom' },
        note: 'Met at the conference',
      }),
    ).toBe(
      'BEGIN:VCARD\r\n' +
        'VERSION:3.0\r\n' +
        'N:Lovelace;Ada;;;\r\n' +
        'FN:Ada Lovelace\r\n' +
        'ORG:Analytical Engines Ltd\r\n' +
        'TITLE:Programmer\r\n' +
        'TEL:+442079460000\r\n' +
        'TEL:02079460001\r\n' +
        'EMAIL:ada@example.com\r\n' +
        'EMAIL:ada@example.org\r\n' +
        'URL:https://example.com/ada\r\n' +
        "ADR:;;12 St James's Square;London;;SW1Y 4JH;United Kingdom\r\n" +
        'NOTE:Met at the conference\r\n' +
        'END:VCARD\r\n',
    );
  });

  it('escapes backslash, comma, semicolon and line breaks; keeps non-ASCII and other characters', () => {
    expect(
      build('vcard', {
        first_name: 'Zoë; "Zed"',
        last_name: 'Müller, Jr.',
        organization: 'Café Straße ☕; Bäckerei, GmbH',
        title: 'Chef: Brot & Kuchen',
        address: { street: 'Hauptstraße 1, Hinterhaus', city: 'Köln' },
        note: 'Line 1\nC:\\path; a,b\r\nLine 3',
      }),
    ).toBe(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        String.raw`N:Müller\, Jr.;Zoë\; "Zed";;;`,
        String.raw`FN:Zoë\; "Zed" Müller\, Jr.`,
        String.raw`ORG:Café Straße ☕\; Bäckerei\, GmbH`,
        'TITLE:Chef: Brot & Kuchen',
        String.raw`ADR:;;Hauptstraße 1\, Hinterhaus;Köln;;;`,
        String.raw`NOTE:Line 1\nC:\\path\; a\,b\nLine 3`,
        'END:VCARD',
        '',
      ].join('\r\n'),
    );
  });

  it('leaves out an address with only blank parts and keeps the URL on one line', () => {
    expect(build('vcard', { first_name: 'Ada', address: { city: '  ' }, url: 'https://example.com/a b' })).toBe(
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:;Ada;;;\r\nFN:Ada\r\nURL:https://example.com/a%20b\r\nEND:VCARD\r\n',
    );
  });

  it('rejects bad fields at their path', () => {
    expectRejected('vcard', {}, ['first_name'], 'is required');
    expectRejected('vcard', { first_name: '   ' }, ['first_name'], 'must not be empty');
    expectRejected(
      'vcard',
      { first_name: 'A', last_name: 'L'.repeat(101) },
      ['last_name'],
      'must be at most 100 characters',
    );
    expectRejected(
      'vcard',
      { first_name: 'A', emails: ['a@example.com', 'nope'] },
      ['emails', 1],
      'must be an email address such as name@example.com',
    );
    expectRejected('vcard', { first_name: 'A', phones: ['12'] }, ['phones', 0], 'must have between 3 and 15 digits');
    expectRejected(
      'vcard',
      { first_name: 'A', phones: Array(6).fill('123') },
      ['phones'],
      'must have at most 5 entries',
    );
    expectRejected('vcard', { first_name: 'A', phones: '123' }, ['phones'], 'must be a list of phone numbers');
    expectRejected(
      'vcard',
      { first_name: 'A', url: 'javascript:alert(1)' },
      ['url'],
      'must be an absolute http:// or https:// URL',
    );
    expectRejected(
      'vcard',
      { first_name: 'A', url: 'not a url' },
      ['url'],
      'must be an absolute http:// or https:// URL',
    );
    expectRejected('vcard', { first_name: 'A', address: 'Berlin' }, ['address'], 'must be an object');
    expectRejected(
      'vcard',
      { first_name: 'A', address: { postal_code: '1'.repeat(21) } },
      ['address', 'postal_code'],
      'must be at most 20 characters',
    );
    expect(firstIssue('vcard', { first_name: 'A', address: { zip: '10115' } })).toMatchObject({
      code: 'unrecognized_keys',
      path: ['address'],
      keys: ['zip'],
    });
  });

  it('rejects a card whose payload is too long for a QR code', () => {
    const big = { first_name: 'A', note: '☕'.repeat(700) };
    expectRejected('vcard', big, [], 'is too long to fit in a QR code');
    // Only fully valid content is measured: other issues come alone.
    const mixed = staticContentSchemas.vcard.safeParse({ ...big, url: 'not a url' });
    expect(mixed.error?.issues.map((i) => i.path)).toEqual([['url']]);
    const fits = build('vcard', { first_name: 'A', note: 'n'.repeat(1000), organization: 'o'.repeat(200) });
    expect(utf8ByteLength(fits)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
  });
});

describe('geo', () => {
  it('builds geo:lat,lon with up to 6 decimals and no trailing zeros', () => {
    expect(build('geo', { latitude: 52.520008, longitude: 13.404954 })).toBe('geo:52.520008,13.404954');
    expect(build('geo', { latitude: -33.8688, longitude: 151.2093 })).toBe('geo:-33.8688,151.2093');
    expect(build('geo', { latitude: 48.85836789, longitude: 2.2944813 })).toBe('geo:48.858368,2.294481');
    expect(build('geo', { latitude: 0, longitude: 0 })).toBe('geo:0,0');
    expect(build('geo', { latitude: 1e-7, longitude: -1e-7 })).toBe('geo:0,0');
    expect(build('geo', { latitude: 0.000001, longitude: -12.5 })).toBe('geo:0.000001,-12.5');
    expect(build('geo', { latitude: 90, longitude: -180 })).toBe('geo:90,-180');
  });

  it('rejects out-of-range, missing and non-numeric coordinates', () => {
    expectRejected('geo', { latitude: 90.5, longitude: 0 }, ['latitude'], 'must be a number between -90 and 90');
    expectRejected('geo', { latitude: 0, longitude: -180.1 }, ['longitude'], 'must be a number between -180 and 180');
    expectRejected('geo', { latitude: 0, longitude: '13.4' }, ['longitude'], 'must be a number between -180 and 180');
    expectRejected('geo', { latitude: Number.NaN, longitude: 0 }, ['latitude'], 'must be a number between -90 and 90');
    expectRejected(
      'geo',
      { latitude: 0, longitude: Number.POSITIVE_INFINITY },
      ['longitude'],
      'must be a number between -180 and 180',
    );
    expectRejected('geo', { longitude: 0 }, ['latitude'], 'is required');
  });
});

describe('decode round trip', () => {
  it('a Wi-Fi code with escapes and non-ASCII scans back byte for byte', async () => {
    const payload = build('wifi', { ssid: 'Café Straße ☕;"5G"', password: 'Grüße: \\;,"x"', hidden: true });
    expect(payload).toBe(String.raw`WIFI:T:WPA;S:Café Straße ☕\;\"5G\";P:Grüße\: \\\;\,\"x\";H:true;;`);
    const scanned = await scan(payload);
    expect(scanned.text).toBe(payload);
    expect(scanned.bytes.equals(Buffer.from(payload, 'utf8'))).toBe(true);
  });

  it('a vCard with escapes and non-ASCII scans back byte for byte', async () => {
    const payload = build('vcard', {
      first_name: 'Zoë',
      last_name: 'Müller, Jr.',
      organization: 'Café Straße ☕; Bäckerei',
      phones: ['+49 30 123456'],
      emails: ['zoe@example.com'],
      note: 'Line 1\nBackslash \\ here',
    });
    expect(payload).toContain(String.raw`ORG:Café Straße ☕\; Bäckerei` + '\r\n');
    const scanned = await scan(payload);
    expect(scanned.text).toBe(payload);
    expect(scanned.bytes.equals(Buffer.from(payload, 'utf8'))).toBe(true);
  });
});
