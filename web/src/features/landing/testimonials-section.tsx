import { QuoteIcon } from './icons';
import { TESTIMONIALS } from './landing-content';
import { LandingSection } from './landing-section';
import { cardDelay } from './motion';
import { StarRating } from './star-rating';

export function TestimonialsSection() {
  return (
    <LandingSection
      id="feedback"
      eyebrow="Testimonials"
      title="What Our Customers Say"
      intro="Small businesses across the US trust Flatship with their parcels every day."
      tone="tint"
    >
      <div className="lp-grid lp-grid--3">
        {TESTIMONIALS.map((testimonial, index) => (
          <figure key={testimonial.name} className="lp-card lp-testimonial" style={cardDelay(index)}>
            <QuoteIcon className="lp-testimonial__mark" />
            <StarRating value={testimonial.rating} />
            <blockquote className="lp-testimonial__feedback">
              <p>{testimonial.feedback}</p>
            </blockquote>
            <figcaption className="lp-testimonial__person">
              <img
                className="lp-testimonial__photo"
                src={testimonial.photo}
                alt={`Portrait of ${testimonial.name}`}
                width="56"
                height="56"
                loading="lazy"
              />
              <span>
                <span className="lp-testimonial__name">{testimonial.name}</span>
                <span className="lp-testimonial__role">{testimonial.role}</span>
              </span>
            </figcaption>
          </figure>
        ))}
      </div>
    </LandingSection>
  );
}
