import { type RefObject, useEffect, useRef, useState } from 'react';
import { isPrerenderedSectionVisible } from './prerendered';

/** Spec: a section starts its entrance once 10% of it is visible. */
export const IN_VIEW_THRESHOLD = 0.1;

/**
 * Reports whether the referenced element has entered the viewport. It latches:
 * once visible it stays visible, so content never disappears again on scroll-up.
 * Where IntersectionObserver does not exist (old browsers, jsdom) the element
 * counts as visible from the start, so content is never hidden for good. `prerenderedId` names the
 * element on the pre-rendered page: one that has already faded in there stays in.
 */
export function useInView<T extends Element>(
  threshold = IN_VIEW_THRESHOLD,
  prerenderedId?: string,
): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [inView, setInView] = useState(
    () =>
      typeof IntersectionObserver === 'undefined' ||
      (prerenderedId !== undefined && isPrerenderedSectionVisible(prerenderedId)),
  );

  useEffect(() => {
    const element = ref.current;
    if (inView || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setInView(true);
          observer.disconnect();
        }
      },
      { threshold },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [inView, threshold]);

  return [ref, inView];
}
