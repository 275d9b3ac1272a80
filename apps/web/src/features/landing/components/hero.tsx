import { PLATFORM_NAMES } from '@herald/contract';
import { ArrowRight, CalendarClock, Check } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { landingAnchors } from '@/config/paths';
import { useTrialPath } from './plan-format';

const promises = ['7-day free trial', 'No credit card required', 'Cancel anytime'];

/** Every network Herald connects, so a new network's module is announced without an edit here. */
const NETWORK_LIST = new Intl.ListFormat('en', { type: 'conjunction' }).format(PLATFORM_NAMES);

/** A drawn, not photographed, glimpse of the product: decorative, hidden from screen readers. */
function ProductSketch() {
  const rows = [
    { time: '09:00', text: 'Spring collection teaser', tone: 'bg-pink-100 text-pink-800' },
    { time: '12:30', text: 'Customer story: Lumen Studio', tone: 'bg-sky-100 text-sky-800' },
    { time: '17:45', text: 'Weekend giveaway reminder', tone: 'bg-amber-100 text-amber-800' },
  ];
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md">
      <div className="absolute -inset-4 rotate-2 rounded-3xl bg-indigo-200/50 blur-2xl" />
      <div className="relative rounded-2xl border border-slate-200 bg-white p-5 shadow-xl">
        <div className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          <CalendarClock className="size-4 text-indigo-600" />
          Today&apos;s queue
        </div>
        <ul className="mt-4 space-y-3">
          {rows.map((row) => (
            <li
              key={row.time}
              className="flex items-center gap-3 rounded-xl border border-slate-100 p-3"
            >
              <span className="text-xs font-semibold text-slate-600">{row.time}</span>
              <span className="min-w-0 flex-1 truncate text-sm text-slate-800">{row.text}</span>
              <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${row.tone}`}>
                Scheduled
              </span>
            </li>
          ))}
        </ul>
        <div className="mt-4 grid grid-cols-3 gap-3 text-center">
          {[
            ['128', 'Posts'],
            ['4.8k', 'Replies'],
            ['85%', 'Engaged'],
          ].map(([value, label]) => (
            <div key={label} className="rounded-xl bg-slate-50 p-3">
              <p className="text-lg font-bold text-slate-900">{value}</p>
              <p className="text-xs text-slate-600">{label}</p>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

export function Hero() {
  const trialTo = useTrialPath();
  return (
    <section
      aria-labelledby="hero-title"
      className="overflow-hidden bg-gradient-to-b from-indigo-50 via-white to-white pt-32 pb-20 sm:pt-40 sm:pb-28"
    >
      <div className="mx-auto grid max-w-6xl grid-cols-1 items-center gap-16 px-4 sm:px-6 lg:grid-cols-2">
        <div>
          <p className="inline-flex rounded-full bg-indigo-100 px-3 py-1 text-sm font-medium text-indigo-800">
            Social media management for teams
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl"
          >
            Plan once. Publish everywhere.
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-8 text-slate-600">
            Herald brings scheduling, publishing, comments and team workflows for {NETWORK_LIST}{' '}
            into one calm workspace.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <ButtonLink to={trialTo} size="lg">
              Start Free Trial
              <ArrowRight className="size-5" aria-hidden="true" />
            </ButtonLink>
            <a
              href={`#${landingAnchors.features}`}
              className="inline-flex items-center rounded-lg px-6 py-3 font-semibold text-slate-800 hover:bg-white focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              Explore features
            </a>
          </div>
          <ul className="mt-8 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-700">
            {promises.map((promise) => (
              <li key={promise} className="flex items-center gap-2">
                <Check className="size-4 text-emerald-600" aria-hidden="true" />
                {promise}
              </li>
            ))}
          </ul>
        </div>
        <ProductSketch />
      </div>
    </section>
  );
}
