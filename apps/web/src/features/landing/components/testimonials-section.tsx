import { Quote, Star } from 'lucide-react';

interface Testimonial {
  quote: string;
  name: string;
  role: string;
}

// Static marketing copy (docs/product.md#landing-page: three testimonials); the people are illustrative.
export const testimonials: Testimonial[] = [
  {
    quote:
      'We used to juggle five browser tabs every morning. Now the whole week is queued by Monday lunch, and nothing goes out twice.',
    name: 'Maya Lindqvist',
    role: 'Head of Social, Northwind Coffee',
  },
  {
    quote:
      'Our team sits in three time zones. Everyone sees the calendar in their own, and posts still go out on the minute we picked.',
    name: 'Daniel Okafor',
    role: 'Community Lead, Brightpath Learning',
  },
  {
    quote:
      'Roles made it easy to bring in freelancers: they draft, we publish. Setting up the team took ten minutes.',
    name: 'Sofia Marchetti',
    role: 'Founder, Atelier Verde',
  },
];

function initials(name: string) {
  return name
    .split(' ')
    .map((part) => part.charAt(0))
    .join('');
}

export function TestimonialsSection({ id }: { id: string }) {
  return (
    <section
      id={id}
      aria-labelledby="reviews-title"
      className="scroll-mt-20 bg-slate-50 py-20 sm:py-28"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">Reviews</p>
          <h2
            id="reviews-title"
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            Teams that publish with Herald
          </h2>
        </div>
        <ul className="mt-14 grid gap-6 lg:grid-cols-3">
          {testimonials.map((t) => (
            <li key={t.name}>
              <figure className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                <div className="flex gap-1 text-amber-500" role="img" aria-label="Rated 5 out of 5">
                  {[0, 1, 2, 3, 4].map((i) => (
                    <Star key={i} className="size-4 fill-current" aria-hidden="true" />
                  ))}
                </div>
                <blockquote className="mt-4 flex-1 leading-7 text-slate-700">
                  <Quote className="mb-2 size-5 text-indigo-300" aria-hidden="true" />
                  <p>{t.quote}</p>
                </blockquote>
                <figcaption className="mt-6 flex items-center gap-3">
                  <span
                    aria-hidden="true"
                    className="grid size-10 place-items-center rounded-full bg-indigo-100 text-sm font-semibold text-indigo-800"
                  >
                    {initials(t.name)}
                  </span>
                  <span>
                    <span className="block font-semibold text-slate-900">{t.name}</span>
                    <span className="block text-sm text-slate-600">{t.role}</span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
