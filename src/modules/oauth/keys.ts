// The OAuth server's keys: ES256 signing keys for access tokens and the keys that sign its
// cookies, kept in a file (OAUTH_KEYS_FILE, mode 0600), never in the database, so that read access
// to the database is not the power to mint tokens. The first signing key signs; every key in the
// file verifies and is published at /oauth/jwks, so a key rotates without ending live tokens.
// The same holds for cookie keys. Every instance of a fleet reads the same file.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { JWK } from 'jose';
import type { Logger } from 'pino';
import { z } from 'zod';
import { SIGNING_ALG } from './provider.ts';

const signingKeySchema = z.looseObject({
  kty: z.literal('EC', { error: 'must be an EC key (kty EC)' }),
  crv: z.literal('P-256', { error: 'must be on curve P-256' }),
  x: z.string(),
  y: z.string(),
  d: z.string({ error: 'must be a private key (its d is missing): a public key cannot sign' }),
  kid: z.string().min(1, 'needs a kid'),
});

const keysFileSchema = z.strictObject({
  signing: z.array(signingKeySchema).min(1, 'needs at least one signing key'),
  cookies: z
    .array(z.string().min(32, 'a cookie key has at least 32 characters'))
    .min(1, 'needs at least one cookie key'),
});

export type OAuthKeys = z.output<typeof keysFileSchema>;

export class OAuthKeysError extends Error {}

export function newSigningKey(): JWK {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    ...privateKey.export({ format: 'jwk' }),
    kid: `es256-${randomBytes(6).toString('hex')}`,
    alg: SIGNING_ALG,
    use: 'sig',
  };
}

export const newCookieKey = () => randomBytes(32).toString('base64url');

/** Keys as the file holds them; throws OAuthKeysError naming every problem. */
export function readKeysFile(file: string): OAuthKeys {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new OAuthKeysError(`OAUTH_KEYS_FILE ${file} is not readable JSON: ${(err as Error).message}`);
  }
  const parsed = keysFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`);
    throw new OAuthKeysError(`OAUTH_KEYS_FILE ${file} is not a valid key file:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}

/**
 * Writes the key file whole or not at all: a temporary file, then linked into place (fails with
 * EEXIST if one is there: of two processes starting at once, one writes and the other reads it)
 * or, with `replace`, renamed over it. Readers never see half a file.
 */
export function writeKeysFile(file: string, keys: OAuthKeys, options: { replace?: boolean } = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    if (options.replace) renameSync(temporary, file);
    else linkSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Where keys of versions before the key file were kept, to move them out of the database once. */
export interface LegacyKeys {
  take(): Promise<{ signing: JWK; cookie: string } | null>;
  forget(): Promise<void>;
}

/**
 * The keys from OAUTH_KEYS_FILE. Without the file: the keys an earlier version kept in the
 * database (so its live tokens stay valid), or new ones, written to the file; the database
 * copy is then deleted.
 */
export async function loadOAuthKeys(file: string, legacy: LegacyKeys, logger: Logger): Promise<OAuthKeys> {
  if (existsSync(file)) return readKeysFile(file);
  const old = await legacy.take();
  const keys = old
    ? { signing: [old.signing], cookies: [old.cookie] }
    : { signing: [newSigningKey()], cookies: [newCookieKey()] };
  try {
    writeKeysFile(file, keys as OAuthKeys);
    logger.warn(
      { file },
      `OAuth keys ${old ? 'moved out of the database' : 'created'} into OAUTH_KEYS_FILE; back it up and give every ` +
        `instance the same file`,
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (old) await legacy.forget();
  return readKeysFile(file);
}
