// A secret token as it is stored: its SHA-256, in hex. The tokens are random and long (sessions,
// API keys, OAuth client secrets, setup, invitation and password-reset links, sign-in challenges,
// recovery codes), so a fast hash is enough (nobody can guess 2^80 values at any speed; argon2 is
// for passwords people choose), a database dump signs nobody in, and one indexed lookup finds it.
import { createHash } from 'node:crypto';

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
