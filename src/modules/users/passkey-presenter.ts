// The public JSON of passkeys and of the options of their ceremonies.
import { z } from 'zod';
import type { CeremonyOptions } from './passkeys.ts';
import type { PasskeyRecord } from './passkey-store.ts';

const instant = z.iso.datetime();

export const passkeySchema = z
  .object({
    id: z.string().meta({ example: 'pk_7Hq2mX9kL0pT4vR8wZ1b' }),
    object: z.literal('passkey'),
    name: z.string().meta({ example: 'Laptop' }),
    created_at: instant,
    last_used_at: instant.nullable().meta({ description: 'The last sign-in with it; null before the first.' }),
    transports: z
      .array(z.string())
      .meta({ description: 'How the browser reaches it, as the device said (`internal`, `hybrid`, `usb`…).' }),
  })
  .meta({
    id: 'Passkey',
    description: 'A passkey (WebAuthn credential) of the user; its key never leaves the device.',
  });

export const passkeyListSchema = z
  .object({ object: z.literal('list'), data: z.array(passkeySchema) })
  .meta({ id: 'PasskeyList', description: 'The user’s passkeys, oldest first. Not paginated (25 at most).' });

const ceremonySchema = (id: string, what: string) =>
  z
    .object({
      object: z.literal('passkey_options'),
      options: z.looseObject({ challenge: z.string() }).meta({
        description: `${what}, as JSON (WebAuthn Level 3 \`PublicKeyCredential.parse…OptionsFromJSON\` reads it).`,
      }),
      expires_at: instant.meta({ description: 'The challenge works once, until then (5 minutes).' }),
    })
    .meta({ id, description: `The options of ${what}.` });

export const registrationOptionsSchema = ceremonySchema('PasskeyRegistrationOptions', 'navigator.credentials.create()');
export const signInOptionsSchema = ceremonySchema('PasskeySignInOptions', 'navigator.credentials.get()');

export function presentPasskey(passkey: PasskeyRecord): z.output<typeof passkeySchema> {
  return {
    id: passkey.id,
    object: 'passkey',
    name: passkey.name,
    created_at: passkey.createdAt.toISOString(),
    last_used_at: passkey.lastUsedAt?.toISOString() ?? null,
    transports: passkey.transports,
  };
}

export const presentCeremony = <T extends object>(ceremony: CeremonyOptions<T>) => ({
  object: 'passkey_options' as const,
  options: ceremony.options,
  expires_at: ceremony.expiresAt.toISOString(),
});
