// Parts of a page that can show a moment later: the sections below the fold of the analytics
// pages render one at a time, each once the browser has painted what came before, instead of
// lengthening the task that paints the page's numbers. On a throttled phone one long task (a
// render, or the layout of all it added) is what keeps a tap from being answered (Lighthouse's
// total blocking time); spread over frames, each render and its layout stay short.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** Resolves in a task after the browser's next frame (layout and paint of what came before). */
const nextPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** The parts waiting, each shown a frame after the one before it. */
let queue: Promise<void> = Promise.resolve();

/** False in the first render; true, in a render of its own, once the parts before it and it had a frame each. */
export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let mounted = true;
    queue = queue.then(nextPaint).then(() => {
      if (mounted) setPainted(true);
    });
    return () => {
      mounted = false;
    };
  }, []);
  return painted;
}

/** Its children, rendered a frame after the page around them (and after any such part before them). */
export function AfterPaint({ children }: { children: ComponentChildren }) {
  return useAfterPaint() ? <>{children}</> : null;
}
