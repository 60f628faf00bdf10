import { useId, useState } from 'react';
import { ChevronDownIcon } from './icons';
import { FAQ } from './landing-content';
import { LandingSection } from './landing-section';

export function FaqSection() {
  // Only one answer is open at a time; null means all are closed.
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  const baseId = useId();

  return (
    <LandingSection
      id="faq"
      eyebrow="FAQ"
      title="Frequently asked questions"
      intro="Everything you need to know before you print your first label."
    >
      <div className="lp-faq">
        {FAQ.map((entry, index) => {
          const isOpen = openIndex === index;
          const buttonId = `${baseId}-question-${index}`;
          const panelId = `${baseId}-answer-${index}`;
          return (
            <div key={entry.question} className={`lp-faq__item${isOpen ? ' is-open' : ''}`}>
              <h3 className="lp-faq__heading">
                <button
                  type="button"
                  id={buttonId}
                  className="lp-faq__question"
                  aria-expanded={isOpen}
                  aria-controls={panelId}
                  onClick={() => setOpenIndex(isOpen ? null : index)}
                >
                  <span>{entry.question}</span>
                  <ChevronDownIcon className="lp-faq__chevron" />
                </button>
              </h3>
              <section id={panelId} aria-labelledby={buttonId} className="lp-faq__answer" hidden={!isOpen}>
                <p>{entry.answer}</p>
              </section>
            </div>
          );
        })}
      </div>
    </LandingSection>
  );
}
