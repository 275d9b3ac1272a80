import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useTrialPath } from './plan-format';

export function CtaSection() {
  const trialTo = useTrialPath();
  return (
    <section aria-labelledby="cta-title" className="bg-white px-4 py-20 sm:px-6 sm:py-28">
      <div className="mx-auto max-w-5xl rounded-3xl bg-indigo-700 px-6 py-14 text-center shadow-xl sm:px-12">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
          Give your team its mornings back
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-indigo-100">
          Try every feature free for 7 days. No credit card required, and you can cancel anytime.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <ButtonLink to={trialTo} variant="inverse" size="lg">
            Start Free Trial
          </ButtonLink>
          <ButtonLink to={paths.signup} variant="outlineInverse" size="lg">
            Create your account
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
