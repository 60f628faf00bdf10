import { AwardIcon, CheckIcon, HeadsetIcon, QuoteIcon, TagIcon } from './icons';
import { REASONS, SATISFACTION_PERCENT } from './landing-content';
import { LandingSection } from './landing-section';
import { cardDelay } from './motion';

const REASON_ICONS = [AwardIcon, TagIcon, HeadsetIcon];

export function WhyChooseUsSection() {
  return (
    <LandingSection
      id="why-choose-us"
      eyebrow="Why Choose Us"
      title="Shipping that works as hard as you do"
      intro={`Genuine USPS labels, a ${SATISFACTION_PERCENT}% satisfaction guarantee, and people on hand whenever you need them.`}
      tone="tint"
    >
      <div className="lp-grid lp-grid--3">
        {REASONS.map((reason, index) => {
          const Icon = REASON_ICONS[index] ?? AwardIcon;
          return (
            <article key={reason.title} className="lp-card lp-reason" style={cardDelay(index)}>
              <span className="lp-card__icon">
                <Icon />
              </span>
              <h3 className="lp-card__title">{reason.title}</h3>
              <ul className="lp-checklist">
                {reason.points.map((point) => (
                  <li key={point}>
                    <CheckIcon className="lp-checklist__icon" />
                    {point}
                  </li>
                ))}
              </ul>
              <figure className="lp-reason__quote">
                <QuoteIcon className="lp-reason__quote-icon" />
                <blockquote>
                  <p>{reason.quote}</p>
                </blockquote>
                <figcaption>— {reason.quoteAuthor}</figcaption>
              </figure>
            </article>
          );
        })}
      </div>
    </LandingSection>
  );
}
