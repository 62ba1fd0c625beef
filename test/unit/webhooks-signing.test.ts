// Signing per Standard Webhooks, checked against the reference library; the retry schedule;
// which endpoints want which events; the URL policy.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { activeSecrets, wants } from '../../src/modules/webhooks/model.ts';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelayMs } from '../../src/modules/webhooks/schedule.ts';
import { eventBody, generateSecret, sign, signedHeaders } from '../../src/modules/webhooks/signature.ts';
import { urlProblems } from '../../src/modules/webhooks/target.ts';

describe('signatures', () => {
  it('generates whsec_ secrets of 32 random bytes', () => {
    const a = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(generateSecret()).not.toBe(a);
  });

  it('signs exactly as the reference library does', () => {
    for (let i = 0; i < 20; i++) {
      const secret = generateSecret();
      const id = `evt_${i}`;
      const at = new Date(1_790_000_000_000 + i * 1000);
      const body = JSON.stringify({ type: 'scan.created', n: i, text: 'ünïcødé ✓' });
      expect(sign(secret, id, Math.floor(at.getTime() / 1000), body)).toBe(new Webhook(secret).sign(id, at, body));
    }
  });

  it('verifies with the reference library, with either secret during a rotation', () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const body = eventBody(
      'code.created',
      new Date('2026-11-22T10:00:00.000Z'),
      '{"id":"qr_1","content":"https://e.example/ü"}',
    );
    const headers = signedHeaders([current, previous], 'evt_abc', new Date(), body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual({
      type: 'code.created',
      timestamp: '2026-11-22T10:00:00.000Z',
      data: { id: 'qr_1', content: 'https://e.example/ü' },
    });
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow('No matching signature found');
    // An old timestamp is refused by receivers (replay protection), so every attempt is signed anew.
    const stale = signedHeaders([current], 'evt_abc', new Date(Date.now() - 10 * 60_000), body);
    expect(() => new Webhook(current).verify(body, stale)).toThrow('Message timestamp too old');
  });

  it('keeps the previous secret signing only until its overlap ends', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    const endpoint = {
      secret: 'whsec_new',
      previousSecret: 'whsec_old',
      previousSecretExpiresAt: new Date('2026-11-23T10:00:00Z'),
    };
    expect(activeSecrets(endpoint, now)).toEqual(['whsec_new', 'whsec_old']);
    expect(activeSecrets(endpoint, new Date('2026-11-23T10:00:00Z'))).toEqual(['whsec_new']);
    expect(activeSecrets({ ...endpoint, previousSecret: null, previousSecretExpiresAt: null }, now)).toEqual([
      'whsec_new',
    ]);
  });
});

describe('retry schedule', () => {
  it('is immediate, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 27.5 hours, 8 attempts', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    expect(RETRY_DELAYS_MS.map((ms) => ms / 1000)).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 3_600_000).toBeCloseTo(27.6, 1);
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, 1, middle))).toEqual([...RETRY_DELAYS_MS]);
    expect(retryDelayMs(8, 1, middle)).toBeNull();
    expect(retryDelayMs(0, 1, middle)).toBeNull();
  });

  it('jitters by ±20% and scales', () => {
    expect(retryDelayMs(2, 1, () => 0)).toBe(240_000);
    expect(retryDelayMs(2, 1, () => 1)).toBe(360_000);
    expect(retryDelayMs(2, 0.001, () => 0.5)).toBe(300);
    for (let i = 0; i < 100; i++) {
      const delay = retryDelayMs(1, 1)!;
      expect(delay).toBeGreaterThanOrEqual(4000);
      expect(delay).toBeLessThanOrEqual(6000);
    }
  });
});

describe('which endpoints want an event', () => {
  const all = { enabled: true, events: ['scan.created', 'code.created'] as const, codeIds: null };
  it('by type, by code, and never when disabled', () => {
    expect(wants({ ...all, events: [...all.events] }, 'scan.created', ['qr_1'])).toBe(true);
    expect(wants({ ...all, events: [...all.events] }, 'code.deleted', ['qr_1'])).toBe(false);
    expect(wants({ ...all, events: [...all.events], enabled: false }, 'scan.created', ['qr_1'])).toBe(false);
    const limited = { ...all, events: [...all.events], codeIds: ['qr_1', 'qr_2'] };
    expect(wants(limited, 'scan.created', ['qr_2'])).toBe(true);
    expect(wants(limited, 'scan.created', ['qr_3'])).toBe(false);
    expect(wants(limited, 'code.created', ['qr_9', 'qr_1'])).toBe(true);
  });
});

describe('webhook URL policy', () => {
  const strict = { allowPrivateNetwork: false, allowHttp: false };
  it('wants https, allows http in development or with private targets allowed', () => {
    expect(urlProblems('https://hooks.example.com/in', strict)).toEqual([]);
    expect(urlProblems('http://hooks.example.com/in', strict)).toEqual([
      'must be an https:// URL (http:// only in development or with ALLOW_PRIVATE_NETWORK_TARGETS=true)',
    ]);
    expect(urlProblems('http://hooks.example.com/in', { ...strict, allowHttp: true })).toEqual([]);
    expect(urlProblems('https://10.1.2.3/in', { allowPrivateNetwork: true, allowHttp: true })).toEqual([]);
    expect(urlProblems('https://[::ffff:169.254.169.254]/', strict)).toEqual([
      'points to a private or reserved address (::ffff:a9fe:a9fe)',
    ]);
    expect(urlProblems('https://instance-data.ec2.internal/', strict)).toEqual([
      'points to an internal host name (instance-data.ec2.internal)',
    ]);
  });
});
