import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { readStorage, storageKeys, writeStorage } from '@/lib/storage';

export type CookieChoice = 'accepted' | 'rejected';

function readChoice(): CookieChoice | null {
  const value = readStorage(storageKeys.cookieConsent);
  return value === 'accepted' || value === 'rejected' ? value : null;
}

/** Asks once on public pages; the answer is kept in localStorage (docs/product.md#cookie-choice). */
export function CookieBanner() {
  const [choice, setChoice] = useState<CookieChoice | null>(readChoice);
  if (choice) return null;

  const choose = (value: CookieChoice) => {
    writeStorage(storageKeys.cookieConsent, value);
    setChoice(value);
  };

  return (
    <>
      {/* Room at the end of the page, so the fixed banner never hides the footer's links. */}
      <div aria-hidden="true" className="h-48 sm:h-36 md:h-28" />
      <section
        aria-labelledby="cookie-banner-title"
        className="fixed inset-x-0 bottom-0 z-50 border-t border-slate-200 bg-white/95 shadow-2xl backdrop-blur"
      >
        <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-4 sm:px-6 md:flex-row md:items-center md:justify-between">
          <div className="text-sm text-slate-700">
            <h2 id="cookie-banner-title" className="font-semibold text-slate-900">
              Cookies on Herald
            </h2>
            <p className="mt-1">
              We use essential cookies to keep you signed in. With your consent we also remember
              preferences that make Herald nicer to use. Read our{' '}
              <Link to={paths.cookiePolicy} className="font-medium text-indigo-700 underline">
                Cookie Policy
              </Link>
              .
            </p>
          </div>
          <div className="flex shrink-0 gap-3">
            <Button variant="secondary" onClick={() => choose('rejected')}>
              Reject All
            </Button>
            <Button onClick={() => choose('accepted')}>Accept All</Button>
          </div>
        </div>
      </section>
    </>
  );
}
