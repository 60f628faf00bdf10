import type { ReactNode } from 'react';
import { useInView } from './use-in-view';

interface LandingSectionProps {
  id: string;
  eyebrow: string;
  title: string;
  intro?: string;
  tone?: 'light' | 'tint' | 'dark';
  children: ReactNode;
}

/**
 * A titled landing section that fades in once 10% of it is on screen. Cards
 * inside it key their own entrance off the `is-visible` class set here.
 */
export function LandingSection({ id, eyebrow, title, intro, tone = 'light', children }: LandingSectionProps) {
  const [ref, inView] = useInView<HTMLElement>(undefined, id);
  const headingId = `${id}-title`;
  return (
    <section
      ref={ref}
      id={id}
      aria-labelledby={headingId}
      className={`lp-section lp-section--${tone} lp-reveal${inView ? ' is-visible' : ''}`}
    >
      <div className="lp-container">
        <header className="lp-section__header">
          <p className="lp-eyebrow">{eyebrow}</p>
          <h2 id={headingId} className="lp-section__title">
            {title}
          </h2>
          {intro ? <p className="lp-section__intro">{intro}</p> : null}
        </header>
        {children}
      </div>
    </section>
  );
}
