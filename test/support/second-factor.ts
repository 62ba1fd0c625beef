// The second factor in tests: the code an authenticator app would show now for a secret, computed
// with the same library as the server (otpauth), as a phone would from the otpauth:// URI.
import { Secret, TOTP } from 'otpauth';

/** The current 6-digit code of a base32 secret, or the one `stepsAhead` periods of 30 s later. */
export function totpCode(secret: string, stepsAhead = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}
