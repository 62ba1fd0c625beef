// Which X-Forwarded-For entry is the client: the rightmost one our proxies did not write.
import { describe, expect, it } from 'vitest';
import { createClientAddress } from '../../src/shared/client-address.ts';

const xff = (value: string | string[]) => ({ 'x-forwarded-for': value });

describe('client address', () => {
  it('is the socket peer when no proxy is trusted, whatever the header says', () => {
    const address = createClientAddress({ trustProxy: false, trustedProxies: [] });
    expect(address(xff('8.8.8.8'), '203.0.113.9')).toBe('203.0.113.9');
    expect(address({}, '::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(address({}, undefined)).toBeNull();
  });

  it('TRUST_PROXY=true alone: one proxy, so the rightmost entry (a forged leftmost one is ignored)', () => {
    const address = createClientAddress({ trustProxy: true, trustedProxies: [] });
    expect(address(xff('8.8.8.8'), '127.0.0.1')).toBe('8.8.8.8');
    expect(address(xff('1.2.3.4, 8.8.8.8'), '127.0.0.1')).toBe('8.8.8.8');
    expect(address(xff(['1.2.3.4', '5.6.7.8, 8.8.8.8']), '127.0.0.1')).toBe('8.8.8.8');
    expect(address(xff('1.2.3.4, not-an-address'), '127.0.0.1')).toBe('127.0.0.1');
    expect(address({}, '127.0.0.1')).toBe('127.0.0.1');
  });

  it('TRUSTED_PROXIES: skips our proxies from the right, over several hops and IPv6', () => {
    const address = createClientAddress({
      trustProxy: false,
      trustedProxies: ['10.0.0.0/8', '2001:db8::/32', '127.0.0.1'],
    });
    expect(address(xff('1.2.3.4, 81.2.69.142, 10.1.1.1, 10.2.2.2'), '127.0.0.1')).toBe('81.2.69.142');
    expect(address(xff('2a00:1450::1, 2001:db8::7'), '10.9.9.9')).toBe('2a00:1450::1');
    expect(address(xff('81.2.69.142'), '::ffff:10.0.0.3')).toBe('81.2.69.142');
    // Every hop is ours: the request began inside.
    expect(address(xff('10.0.0.5, 10.0.0.6'), '127.0.0.1')).toBe('10.0.0.5');
    // Garbage left of our proxies: nothing beyond it is believed.
    expect(address(xff('8.8.8.8, junk, 10.0.0.6'), '127.0.0.1')).toBe('127.0.0.1');
  });

  it('TRUSTED_PROXIES: a request not from one of our proxies is its own client, header or not', () => {
    const address = createClientAddress({ trustProxy: true, trustedProxies: ['10.0.0.0/8'] });
    expect(address(xff('8.8.8.8'), '203.0.113.9')).toBe('203.0.113.9');
  });
});
