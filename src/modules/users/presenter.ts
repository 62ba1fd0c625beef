// The public JSON of users, sessions and a signed-in answer. The zod schemas are the contract
// (they feed the OpenAPI document); the presenters' return types are inferred from them.
import { z } from 'zod';
import { ROLES } from '../../shared/roles.ts';
import { csrfTokenOf } from '../../shared/session-token.ts';
import type { SessionRecord, UserRecord } from './store.ts';

const instant = z.iso.datetime();

export const userSchema = z
  .object({
    id: z.string().meta({ example: 'user_4kT0Xb2Qm9LpV7sR1wZc' }),
    object: z.literal('user'),
    email: z.string().meta({ example: 'ada@example.com' }),
    display_name: z.string().meta({ example: 'Ada Lovelace' }),
    email_verified: z.boolean().meta({
      description:
        'Whether the user proved they read mail at the address: a verification link, a password reset link or a ' +
        'mailed invitation opened, or a single sign-on whose identity provider vouched for it.',
    }),
    created_at: instant,
    updated_at: instant,
  })
  .meta({ id: 'User', description: 'A person who signs in; a member of any number of workspaces.' });
export type UserJson = z.output<typeof userSchema>;

/** A workspace as its member sees it: the account, with the member's role in it. */
export const workspaceSchema = z
  .object({
    id: z.string().meta({ example: 'acct_2bN7xQ4mK9pL1vT5rW8z', description: 'The account’s id (`acct_…`).' }),
    object: z.literal('workspace'),
    name: z.string().meta({ example: 'Marketing' }),
    role: z.enum(ROLES).meta({ description: 'The caller’s role in it.' }),
    created_at: instant,
  })
  .meta({ id: 'Workspace', description: 'A workspace (an account) with the caller’s role in it.' });
export type WorkspaceJson = z.output<typeof workspaceSchema>;

export const sessionSchema = z
  .object({
    id: z.string().meta({ example: 'sess_9fQ2mX7kL0pT4vR8wZ1b' }),
    object: z.literal('session'),
    current: z.boolean().meta({ description: 'Whether this is the session of the request.' }),
    created_at: instant,
    last_seen_at: instant.meta({ description: 'Updated at most once a minute.' }),
    expires_at: instant.meta({ description: 'The latest end; unused for SESSION_IDLE_DAYS it ends earlier.' }),
    user_agent: z.string().nullable(),
  })
  .meta({ id: 'Session', description: 'A signed-in browser or device of the user.' });
export type SessionJson = z.output<typeof sessionSchema>;

export const signedInSchema = z
  .object({
    object: z.literal('signed_in'),
    user: userSchema,
    workspaces: z
      .array(workspaceSchema)
      .meta({ description: 'The user’s workspaces (up to 200), each with the role.' }),
    session: sessionSchema,
    csrf_token: z.string().meta({
      description: 'Send it as X-CSRF-Token on every request signed in by cookie that changes something.',
      example: 'oT3kX0b2Qm9LpV7sR1wZcA4eX7uQ5hJ2aC4eX7uQ9LmV',
    }),
  })
  .meta({ id: 'SignedIn', description: 'The signed-in user, their workspaces and the session’s CSRF token.' });

export const sessionListSchema = z
  .object({ object: z.literal('list'), data: z.array(sessionSchema) })
  .meta({ id: 'SessionList', description: 'The user’s live sessions, newest first. Not paginated.' });

export function presentUser(user: UserRecord): UserJson {
  return {
    id: user.id,
    object: 'user',
    email: user.email,
    display_name: user.displayName,
    email_verified: user.emailVerifiedAt !== null,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

export function presentSession(session: SessionRecord, currentId: string): SessionJson {
  return {
    id: session.id,
    object: 'session',
    current: session.id === currentId,
    created_at: session.createdAt.toISOString(),
    last_seen_at: session.lastSeenAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
    user_agent: session.userAgent,
  };
}

/** The answer of sign-in, setup and GET /v1/session. */
export const presentSignedIn = (
  signedIn: { user: UserRecord; session: SessionRecord },
  token: string,
  workspaces: WorkspaceJson[],
): z.output<typeof signedInSchema> => ({
  object: 'signed_in',
  user: presentUser(signedIn.user),
  workspaces,
  session: presentSession(signedIn.session, signedIn.session.id),
  csrf_token: csrfTokenOf(token),
});

export const secondFactorSchema = z
  .object({
    object: z.literal('second_factor'),
    enabled: z.boolean().meta({ description: 'Whether sign-in asks for a code after the password.' }),
    enabled_at: instant.nullable(),
    recovery_codes_left: z.int().meta({ description: 'Unused recovery codes (0 while off).', example: 10 }),
  })
  .meta({ id: 'SecondFactor', description: 'The user’s TOTP second factor.' });

export const secondFactorEnrolmentSchema = z
  .object({
    object: z.literal('second_factor_enrolment'),
    secret: z.string().meta({
      description: 'The base32 secret, for typing into the app; shown only in this answer.',
      example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    }),
    otpauth_uri: z.string().meta({
      description: 'The `otpauth://totp/…` URI an authenticator app reads (SHA-1, 6 digits, 30 s).',
      example: 'otpauth://totp/qr.example.com:ada%40example.com?issuer=qr.example.com&secret=…',
    }),
    qr_svg: z.string().meta({ description: 'The URI as a QR code, an SVG document to scan with the app.' }),
  })
  .meta({
    id: 'SecondFactorEnrolment',
    description: 'A new secret awaiting its first code (POST /v1/users/me/second-factor/confirm).',
  });

export const recoveryCodesSchema = z
  .object({
    object: z.literal('recovery_codes'),
    codes: z.array(z.string()).meta({
      description: 'Ten single-use codes for signing in without the app; shown only in this answer.',
      example: ['k4zq-7m2p-x9ab-c3de'],
    }),
  })
  .meta({ id: 'RecoveryCodes', description: 'Recovery codes, shown once: keep them somewhere safe.' });

export function presentSecondFactor(status: {
  enabled: boolean;
  enabledAt: Date | null;
  recoveryCodesLeft: number;
}): z.output<typeof secondFactorSchema> {
  return {
    object: 'second_factor',
    enabled: status.enabled,
    enabled_at: status.enabledAt?.toISOString() ?? null,
    recovery_codes_left: status.recoveryCodesLeft,
  };
}

export const emailVerificationSentSchema = z
  .object({
    object: z.literal('email_verification_sent'),
    email: z.string().meta({ example: 'ada@example.com', description: 'Where the link went.' }),
    expires_at: instant.meta({ description: 'The link works once, until then (24 hours).' }),
  })
  .meta({ id: 'EmailVerificationSent', description: 'A verification link is mailed to the user’s address.' });

export const emailVerifiedSchema = z
  .object({
    object: z.literal('email_verified'),
    email: z.string().meta({ example: 'ada@example.com' }),
    verified_at: instant,
  })
  .meta({ id: 'EmailVerified', description: 'The address of the link is verified.' });
