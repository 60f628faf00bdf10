import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ArrowRightIcon, HeadsetIcon, MoonIcon, ShieldCheckIcon } from './icons';
import { MONEY_BACK_DAYS } from './landing-content';
import { prefersReducedMotion } from './motion';
import { type HeroImageState, prerenderedHeroImage } from './prerendered';
import { RegisterForm } from './register-form';
import { ScrollLink } from './scroll-link';

export const HERO_IMAGE_URL = '/landing/hero.svg';
/** Matches the length of the `lp-wobble` keyframes in landing.css. */
export const WOBBLE_MS = 600;

/**
 * Preloads the hero artwork so the section appears whole rather than painting in. On the pre-rendered
 * page the image may already have arrived before this code did: it then starts from there.
 */
function useImageLoaded(src: string): HeroImageState {
  const [state, setState] = useState<HeroImageState>(prerenderedHeroImage);
  useEffect(() => {
    if (state !== 'loading') return;
    let isCurrent = true;
    const image = new Image();
    image.onload = () => isCurrent && setState('loaded');
    // A missing image must not hide the page: show the hero on its fallback gradient.
    image.onerror = () => isCurrent && setState('failed');
    image.src = src;
    return () => {
      isCurrent = false;
      image.onload = null;
      image.onerror = null;
    };
  }, [src, state]);
  return state;
}

export function HeroSection() {
  const navigate = useNavigate();
  const imageState = useImageLoaded(HERO_IMAGE_URL);
  const [isWobbling, setIsWobbling] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const getStarted = () => {
    if (isWobbling) return;
    if (prefersReducedMotion()) {
      navigate('/register');
      return;
    }
    setIsWobbling(true);
    timer.current = setTimeout(() => navigate('/register'), WOBBLE_MS);
  };

  const isReady = imageState !== 'loading';

  return (
    <section
      id="landing"
      className="lp-hero"
      aria-labelledby="landing-title"
      aria-busy={!isReady}
      data-image={imageState}
    >
      {/* Rendered while hidden too: the pre-rendered page carries the hero's text for readers without scripts. */}
      <div
        className="lp-hero__inner"
        hidden={!isReady}
        style={imageState === 'loaded' ? { backgroundImage: `url(${HERO_IMAGE_URL})` } : undefined}
      >
        <div className="lp-container lp-hero__content">
          <p className="lp-hero__badge">
            <span className="lp-hero__badge-dot" aria-hidden="true" />
            Prepaid USPS labels for small businesses
          </p>
          <h1 id="landing-title" className="lp-hero__title">
            One flat price. <span className="lp-hero__title-accent">Any weight.</span>
          </h1>
          <p className="lp-hero__lead">
            Ship a 120lb parcel for the same price as a 20lb one. Flatship prints genuine USPS labels — overnight
            options included — in a fully automated checkout that never sleeps.
          </p>
          <div className="lp-hero__actions">
            <RegisterForm onSubmit={getStarted}>
              <button
                type="submit"
                className={`lp-button lp-button--primary lp-button--large${isWobbling ? ' lp-wobble' : ''}`}
              >
                Get Started
                <ArrowRightIcon className="lp-button__icon" />
              </button>
            </RegisterForm>
            <ScrollLink className="lp-button lp-button--ghost lp-button--large" sectionId="how-it-works">
              See how it works
            </ScrollLink>
          </div>
          <ul className="lp-hero__trust" aria-label="Our promises">
            <li>
              <ShieldCheckIcon />
              {MONEY_BACK_DAYS}-day money-back guarantee
            </li>
            <li>
              <MoonIcon />
              Overnight labels
            </li>
            <li>
              <HeadsetIcon />
              24/7 chat support
            </li>
          </ul>
        </div>
      </div>
      {isReady ? null : (
        <div className="lp-hero__loading" role="status">
          <span className="lp-spinner" aria-hidden="true" />
          <span className="lp-visually-hidden">Loading…</span>
        </div>
      )}
    </section>
  );
}
