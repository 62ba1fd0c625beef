// The frame of the pages shown before signing in (sign-in, setup, invitation, password reset):
// the language picker comes first, so a person who cannot read this language finds theirs before
// anything else. It is in the first bundle already: the signed-in top bar has it too, and frames
// these pages when a signed-in person opens one.
import type { ComponentChildren } from 'preact';
import { LanguageSwitcher } from './language-switcher.tsx';

export function SignedOutPage({ children }: { children: ComponentChildren }) {
  return (
    <>
      <header class="signed-out-bar">
        <LanguageSwitcher />
      </header>
      <main>{children}</main>
    </>
  );
}
