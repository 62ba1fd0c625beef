// DNS and Host headers for the own-domain tests, without the network: TXT lookups answered from
// a map (the resolver handed to the test app), and requests sent to the test server's loopback
// address carrying another name in their Host header (the name is never resolved).
import { request as httpRequest } from 'node:http';
import type { ResolveTxt } from '../../src/modules/domains/verification.ts';

export interface FakeDns {
  /** TXT records by name; a name not here is answered ENOTFOUND. */
  txt: Map<string, string[][]>;
  /** Every name looked up, in order. */
  asked: string[];
  /** Set to make every lookup fail with this error code (a resolver in trouble). */
  failWith: string | null;
  resolveTxt: ResolveTxt;
}

export function fakeDns(): FakeDns {
  const dns: FakeDns = {
    txt: new Map(),
    asked: [],
    failWith: null,
    resolveTxt: async (name) => {
      dns.asked.push(name);
      const code = dns.failWith ?? (dns.txt.has(name) ? null : 'ENOTFOUND');
      if (code) throw Object.assign(new Error(`queryTxt ${code} ${name}`), { code });
      return dns.txt.get(name)!;
    },
  };
  return dns;
}

/** A GET to the server at `baseUrl` with this Host header; the redirect is not followed. */
export function getWithHost(
  baseUrl: string,
  host: string,
  path: string,
): Promise<{ status: number; location: string | null; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: new URL(baseUrl).port, path, method: 'GET', headers: { host } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location ?? null, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
