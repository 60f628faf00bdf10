/** Spec: cards enter one after another, 300 ms apart. */
export const CARD_DELAY_STEP_MS = 300;

export function cardDelay(index: number): { transitionDelay: string } {
  return { transitionDelay: `${index * CARD_DELAY_STEP_MS}ms` };
}

export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false;
}

/**
 * Smoothly scrolls a landing section into view. Used instead of a bare hash
 * jump so the router's location is left alone and reduced motion is honoured.
 * Returns false when the section is not on the page.
 */
export function scrollToSection(id: string): boolean {
  const target = document.getElementById(id);
  if (!target) return false;
  target.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
  return true;
}
