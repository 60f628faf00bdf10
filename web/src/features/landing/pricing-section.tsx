import { ClipboardIcon, EyeIcon, ShieldCheckIcon } from './icons';
import { PRICING_POINTS } from './landing-content';
import { LandingSection } from './landing-section';
import { cardDelay } from './motion';

const PRICING_ICONS = [EyeIcon, ShieldCheckIcon, ClipboardIcon];

export function PricingSection() {
  return (
    <LandingSection
      id="pricing"
      eyebrow="Pricing"
      title="Clear Pricing, No Hidden Fees"
      intro="Weight-based pricing punishes the businesses that ship the most. Ours does not: every label has one flat price."
      tone="dark"
    >
      <div className="lp-weight-compare">
        <div className="lp-weight-compare__item">
          <span className="lp-weight-compare__weight">20lb</span>
          <span className="lp-weight-compare__label">parcel</span>
        </div>
        <span className="lp-weight-compare__equals" aria-hidden="true">
          =
        </span>
        <span className="lp-visually-hidden">costs the same as a</span>
        <div className="lp-weight-compare__item lp-weight-compare__item--heavy">
          <span className="lp-weight-compare__weight">120lb</span>
          <span className="lp-weight-compare__label">parcel</span>
        </div>
        <p className="lp-weight-compare__caption">Same label. Same price.</p>
      </div>
      <div className="lp-grid lp-grid--3">
        {PRICING_POINTS.map((point, index) => {
          const Icon = PRICING_ICONS[index] ?? EyeIcon;
          return (
            <article key={point.title} className="lp-card lp-card--on-dark" style={cardDelay(index)}>
              <span className="lp-card__icon">
                <Icon />
              </span>
              <h3 className="lp-card__title">{point.title}</h3>
              <p className="lp-card__text">{point.text}</p>
            </article>
          );
        })}
      </div>
    </LandingSection>
  );
}
