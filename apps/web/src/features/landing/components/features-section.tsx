import {
  CalendarClock,
  ChartColumn,
  MessageSquare,
  ShieldCheck,
  Users,
  Zap,
  type LucideIcon,
} from 'lucide-react';

interface Feature {
  title: string;
  text: string;
  icon: LucideIcon;
}

export const features: Feature[] = [
  {
    title: 'Smart Scheduling',
    text: 'Line up posts for the moment your audience is awake, in any time zone, and let Herald publish them on the minute.',
    icon: CalendarClock,
  },
  {
    title: 'Advanced Analytics',
    text: 'Follow reach and engagement per platform and see which posts your audience actually responds to.',
    icon: ChartColumn,
  },
  {
    title: 'Unified Inbox',
    text: 'Read and answer comments and messages from every network in one stream instead of five apps.',
    icon: MessageSquare,
  },
  {
    title: 'Team Collaboration',
    text: 'Invite teammates, give each a role, and keep drafts, reviews and replies in one shared place.',
    icon: Users,
  },
  {
    title: 'Auto-Posting',
    text: 'Write once, adjust the text and media per platform, and publish to every account automatically.',
    icon: Zap,
  },
  {
    title: 'Secure & Reliable',
    text: 'Encrypted account tokens, role-based access and a publisher that never posts the same thing twice.',
    icon: ShieldCheck,
  },
];

export function FeaturesSection({ id }: { id: string }) {
  return (
    <section
      id={id}
      aria-labelledby="features-title"
      className="scroll-mt-20 bg-white py-20 sm:py-28"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">Features</p>
          <h2
            id="features-title"
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            Everything your social team needs
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            From the first draft to the last reply, Herald keeps the whole workflow in one place.
          </p>
        </div>
        <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features.map(({ title, text, icon: Icon }) => (
            <li
              key={title}
              className="rounded-2xl border border-slate-200 p-6 transition-shadow hover:shadow-md"
            >
              <span className="grid size-12 place-items-center rounded-xl bg-indigo-600 text-white">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 leading-7 text-slate-600">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
