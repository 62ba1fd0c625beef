// Passkeys in the browser: the server's options go to navigator.credentials through
// @simplewebauthn/browser (which turns the JSON's base64url into bytes and back), and the
// device's answer goes back to the server. Signing in keeps the answer as the tab's credential,
// as a password sign-in does (people.ts).
import { startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import { currentMessages } from './i18n/index.ts';
import { asPerson, signInWithPasskeyAnswer, startPasskeySignIn } from './people.ts';

export interface PasskeyRow {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** The browser's refusals in the page's words; the server's problems pass as they are. */
function explained(error: unknown): unknown {
  const t = currentMessages().passkeys;
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return new Error(t.alreadyRegistered);
  // Closed, timed out, or no passkey chosen: the browser does not say which, on purpose.
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
    return new Error(t.notAllowed);
  return error;
}

export const passkeysSupported = () => typeof window.PublicKeyCredential === 'function';

/** Signs in with a passkey: only `email`'s when given, else any the browser has for this site. */
export async function signInWithPasskey(email: string): Promise<void> {
  if (!passkeysSupported()) throw new Error(currentMessages().passkeys.unsupported);
  const options = await startPasskeySignIn<Parameters<typeof startAuthentication>[0]['optionsJSON']>(email);
  let response;
  try {
    response = await startAuthentication({ optionsJSON: options });
  } catch (error) {
    throw explained(error);
  }
  await signInWithPasskeyAnswer(response);
}

/** Registers a new passkey of the signed-in person under `name`. */
export async function registerPasskey(name: string): Promise<PasskeyRow> {
  if (!passkeysSupported()) throw new Error(currentMessages().passkeys.unsupported);
  const { options } = await asPerson<{ options: Parameters<typeof startRegistration>[0]['optionsJSON'] }>(
    'POST',
    '/v1/users/me/passkeys/options',
  );
  let response;
  try {
    response = await startRegistration({ optionsJSON: options });
  } catch (error) {
    throw explained(error);
  }
  return asPerson<PasskeyRow>('POST', '/v1/users/me/passkeys', { name, response });
}
