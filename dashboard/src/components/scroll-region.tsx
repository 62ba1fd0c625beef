// A box that scrolls sideways on its own when what it holds is wider than the screen, so the
// page never does (WCAG 1.4.10, reflow). A box that scrolls must be reachable by keyboard and
// named to be announced, hence the tabindex, role and label.
import type { ComponentChildren } from 'preact';

export function ScrollRegion({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="scroll-region" role="region" aria-label={label} tabindex={0}>
      {children}
    </div>
  );
}
