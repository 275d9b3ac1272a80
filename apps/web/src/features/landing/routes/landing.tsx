import { SiteFooter } from '@/components/layout/site-footer';
import { landingAnchors } from '@/config/paths';
import { CtaSection } from '../components/cta-section';
import { FeaturesSection } from '../components/features-section';
import { Hero } from '../components/hero';
import { LandingNav } from '../components/landing-nav';
import { PricingSection } from '../components/pricing-section';
import { TestimonialsSection } from '../components/testimonials-section';

export function LandingPage() {
  return (
    <div className="bg-white">
      <title>Herald — Social media management for teams</title>
      <LandingNav />
      <main id="main">
        <Hero />
        <FeaturesSection id={landingAnchors.features} />
        <TestimonialsSection id={landingAnchors.reviews} />
        <PricingSection id={landingAnchors.pricing} />
        <CtaSection />
      </main>
      <SiteFooter />
    </div>
  );
}
