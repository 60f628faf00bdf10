/**
 * The landing page is pre-rendered into index.html at build time (see web/prerender/), and until the
 * app's code arrives a small script (landing-boot.js) plays its entrance there: it shows the hero once
 * its image has loaded and fades sections in as they scroll into view. When the landing's own code
 * arrives, it first stops that script (`LANDING_TAKEOVER_EVENT`), then starts from where the page is,
 * so hydrating it neither replays an entrance nor hides what is already on screen.
 */
export const LANDING_TAKEOVER_EVENT = 'flatship:landing-takeover';

export type HeroImageState = 'loading' | 'loaded' | 'failed';

/** Stops the pre-rendered page's script, so the page holds still while the app takes it over. */
export function takeOverPrerenderedLanding(): null {
  if (typeof document !== 'undefined') document.dispatchEvent(new Event(LANDING_TAKEOVER_EVENT));
  return null;
}

/** How far the pre-rendered hero got (its `data-image`), or 'loading' when there is none on the page. */
export function prerenderedHeroImage(): HeroImageState {
  if (typeof document === 'undefined') return 'loading';
  const state = document.getElementById('landing')?.getAttribute('data-image');
  return state === 'loaded' || state === 'failed' ? state : 'loading';
}

/** Whether the pre-rendered section `id` has already faded in. */
export function isPrerenderedSectionVisible(id: string): boolean {
  if (typeof document === 'undefined') return false;
  return document.getElementById(id)?.classList.contains('is-visible') === true;
}
