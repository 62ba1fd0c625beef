// Whether an element has come near the screen: true from the first time it is within `margin` of
// the viewport, and from then on. A picture far below the fold (the world map on a phone) then
// loads and draws as the page is scrolled towards it, not while the page's first screen is
// still being painted; where the browser has no IntersectionObserver, at once.
import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function useNearScreen(ref: RefObject<Element>, margin = '300px'): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    if (typeof IntersectionObserver === 'undefined') return setNear(true);
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: `${margin} 0px`,
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return near;
}
