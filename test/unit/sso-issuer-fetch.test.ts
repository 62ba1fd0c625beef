// The fetch single sign-on uses towards an identity provider: every request passes the SSRF
// check (a name resolving to a private address is refused before any connection), connects to
// the address just checked, and caps the answer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuerFetch } from '../../src/modules/workspaces/sso-issuer-fetch.ts';

let server: Server;
let port: number;
const hosts: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    if (req.url === '/big') return res.end(Buffer.alloc(2_000_000));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, body: req.headers['content-length'] ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const toLoopback = async () => [{ address: '127.0.0.1', family: 4 as const }];

describe('issuerFetch', () => {
  it('refuses a name that resolves to a private address, before connecting', async () => {
    const fetch = issuerFetch({
      policy: { allowPrivateNetwork: false, allowHttp: true, resolve: toLoopback },
      timeoutMs: 2000,
    });
    const before = hosts.length;
    await expect(fetch(`http://idp.example:${port}/`, { method: 'GET', headers: {} })).rejects.toThrow(
      /private or reserved address/,
    );
    expect(hosts.length).toBe(before);
  });

  it('refuses http:// unless allowed, and internal names', async () => {
    const fetch = issuerFetch({ policy: { allowPrivateNetwork: false, allowHttp: false }, timeoutMs: 2000 });
    await expect(fetch('http://login.example.com/', { method: 'GET', headers: {} })).rejects.toThrow(/https/);
    await expect(fetch('https://metadata.google.internal/', { method: 'GET', headers: {} })).rejects.toThrow(
      /internal host name/,
    );
  });

  it('connects to the checked address, with the name as the Host; posts forms; caps the answer', async () => {
    const fetch = issuerFetch({
      policy: { allowPrivateNetwork: true, allowHttp: true, resolve: toLoopback },
      timeoutMs: 2000,
    });
    const res = await fetch(`http://idp.example:${port}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ method: 'POST', body: '29' });
    expect(hosts.at(-1)).toBe(`idp.example:${port}`);
    await expect(fetch(`http://idp.example:${port}/big`, { method: 'GET', headers: {} })).rejects.toThrow(/too large/);
  });
});
