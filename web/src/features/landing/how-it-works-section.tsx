import { ParcelIcon, ReceiptCheckIcon, SparkleIcon, UserPlusIcon } from './icons';
import { STEPS } from './landing-content';
import { LandingSection } from './landing-section';
import { cardDelay } from './motion';

const STEP_ICONS = [UserPlusIcon, ParcelIcon, ReceiptCheckIcon, SparkleIcon];

export function HowItWorksSection() {
  return (
    <LandingSection
      id="how-it-works"
      eyebrow="How It Works"
      title="Shipped in four simple steps"
      intro="No accounts to negotiate, no software to install. Flatship runs in your browser and does the heavy lifting for you."
    >
      <ol className="lp-grid lp-grid--4 lp-steps">
        {STEPS.map((step, index) => {
          const Icon = STEP_ICONS[index] ?? ParcelIcon;
          return (
            <li key={step.title} className="lp-card lp-step" style={cardDelay(index)}>
              <span className="lp-step__number" aria-hidden="true">
                {index + 1}
              </span>
              <span className="lp-card__icon">
                <Icon />
              </span>
              <h3 className="lp-card__title">{step.title}</h3>
              <p className="lp-card__text">{step.text}</p>
            </li>
          );
        })}
      </ol>
    </LandingSection>
  );
}
