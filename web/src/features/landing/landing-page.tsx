import './landing.css';
import { useState } from 'react';
import { FaqSection } from './faq-section';
import { HeroSection } from './hero-section';
import { HowItWorksSection } from './how-it-works-section';
import { takeOverPrerenderedLanding } from './prerendered';
import { PricingSection } from './pricing-section';
import { PublicFooter } from './public-footer';
import { PublicNavbar } from './public-navbar';
import { ReadyToShipSection } from './ready-to-ship-section';
import { TestimonialsSection } from './testimonials-section';
import { WhyChooseUsSection } from './why-choose-us-section';

/** The public landing page at `/`, navbar and footer included. */
export function LandingPage() {
  // Before any section renders: the pre-rendered page's entrance script stops, the page holds still.
  useState(takeOverPrerenderedLanding);
  return (
    <div className="lp-page">
      <PublicNavbar />
      <main className="lp-main">
        <HeroSection />
        <HowItWorksSection />
        <WhyChooseUsSection />
        <PricingSection />
        <FaqSection />
        <TestimonialsSection />
        <ReadyToShipSection />
      </main>
      <PublicFooter />
    </div>
  );
}
