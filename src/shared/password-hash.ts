// Password hashing for everything the service keeps a password of (a code's unlock password,
// a user's sign-in password): argon2id through @node-rs/argon2 with OWASP's parameters (m=19 MiB,
// t=2, p=1), computed on libuv's thread pool so the event loop keeps answering scans meanwhile.
import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** The library's Algorithm.Argon2id: a const enum, which this project's compiler settings cannot read as a value. */
const ARGON2ID: Algorithm.Argon2id = 2;

/** The password's hash (an argon2id PHC string, under 100 characters). */
export const hashPassword = (password: string): Promise<string> => hash(password, { algorithm: ARGON2ID });

/** Whether `password` is the one `passwordHash` was made from (constant time in the library). */
export function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}
