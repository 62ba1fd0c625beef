// DNS and Host headers for the own-domain tests, without the network: TXT lookups answered from
// a map (the resolver handed to the test app), and requests sent to the test server's loopback
// address carrying another name in their Host header (the name is never resolved).
import { request as httpRequest } from 'node:http';
import type { ResolveTxt } from '../../src/modules/domains/verification.ts';
import type { TestResponse } from './app.ts';

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
export async function getWithHost(
  baseUrl: string,
  host: string,
  path: string,
): Promise<{ status: number; location: string | null; body: string }> {
  const res = await requestWithHost(baseUrl, host, 'GET', path);
  return { status: res.status, location: res.headers.get('location'), body: res.text };
}

/**
 * A request to the server at `baseUrl` with this Host header (fetch would send the address's),
 * answered as the test app's `request` answers: headers, text and a parsed JSON body.
 */
export function requestWithHost(
  baseUrl: string,
  host: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: new URL(baseUrl).port, path, method, headers: { ...headers, host } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
          const json = (res.headers['content-type'] ?? '').includes('json') && text !== '';
          resolve({ status: res.statusCode!, headers: answerHeaders, text, body: json ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
