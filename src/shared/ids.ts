// Identifiers are generated in the app (no RETURNING needed) from a CSPRNG via nanoid.
import { customAlphabet } from 'nanoid';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const idBody = customAlphabet(BASE62, 20);

/** Stripe-style prefixed id, e.g. `qr_4kT0...`: the prefix tells a reader what it names. */
export function newId(
  prefix:
    | 'qr'
    | 'acct'
    | 'key'
    | 'rule'
    | 'batch'
    | 'wh'
    | 'evt'
    | 'dlv'
    | 'tag'
    | 'dom'
    | 'utm'
    | 'aud'
    | 'user'
    | 'sess'
    | 'inv'
    | 'img'
    | 'pk',
): string {
  return `${prefix}_${idBody()}`;
}

/** Random base62 string of the given length (slugs, key secrets). */
export function randomBase62(length: number): string {
  return customAlphabet(BASE62, length)();
}
