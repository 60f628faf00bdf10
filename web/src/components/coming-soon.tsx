import type { ReactNode } from 'react';
import './components.css';

interface ComingSoonProps {
  heading: string;
  /** One sentence on what the screen will let the user do. */
  description: string;
  icon?: ReactNode;
}

/** The honest state of a screen whose feature has not shipped yet. */
export function ComingSoon({ heading, description, icon }: ComingSoonProps) {
  return (
    <section className="card coming-soon" aria-labelledby="coming-soon-heading">
      {icon ? <div className="coming-soon__icon">{icon}</div> : null}
      <h2 id="coming-soon-heading" className="coming-soon__heading">
        {heading}
      </h2>
      <p className="coming-soon__description">{description}</p>
      <p className="coming-soon__note">Available soon.</p>
    </section>
  );
}
