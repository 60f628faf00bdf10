import { useNavigate } from 'react-router';
import { ArrowRightIcon, LayersIcon, TruckIcon } from './icons';
import { MONEY_BACK_DAYS, READY_BENEFITS } from './landing-content';
import { LandingSection } from './landing-section';
import { cardDelay } from './motion';
import { RegisterForm } from './register-form';

const BENEFIT_ICONS = [TruckIcon, LayersIcon];

export function ReadyToShipSection() {
  const navigate = useNavigate();
  return (
    <LandingSection
      id="ready-to-ship"
      eyebrow="Get going"
      title="Ready to Ship Your Goods?"
      intro={`Open an account in a minute and print your first USPS label today — backed by our ${MONEY_BACK_DAYS}-day money-back guarantee.`}
      tone="dark"
    >
      <div className="lp-ready">
        <div className="lp-grid lp-grid--2">
          {READY_BENEFITS.map((benefit, index) => {
            const Icon = BENEFIT_ICONS[index] ?? TruckIcon;
            return (
              <article key={benefit.title} className="lp-card lp-card--on-dark lp-card--row" style={cardDelay(index)}>
                <span className="lp-card__icon">
                  <Icon />
                </span>
                <div>
                  <h3 className="lp-card__title">{benefit.title}</h3>
                  <p className="lp-card__text">{benefit.text}</p>
                </div>
              </article>
            );
          })}
        </div>
        <RegisterForm onSubmit={() => navigate('/register')}>
          <button type="submit" className="lp-button lp-button--primary lp-button--large lp-ready__cta">
            Start Shipping Today
            <ArrowRightIcon className="lp-button__icon" />
          </button>
        </RegisterForm>
      </div>
    </LandingSection>
  );
}
