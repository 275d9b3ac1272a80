import { useEffect, useState } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { LoadingIndicator } from '@/components/ui/spinner';
import { landingAnchors, paths } from '@/config/paths';
import { homePathFor, useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';

/** docs/product.md#constants: the landing navigation turns solid after this much scroll. */
export const SOLID_NAV_SCROLL_PX = 50;

const anchors = [
  { href: `#${landingAnchors.features}`, label: 'Features' },
  { href: `#${landingAnchors.pricing}`, label: 'Pricing' },
  { href: `#${landingAnchors.reviews}`, label: 'Reviews' },
];

function useScrolledPast(offset: number): boolean {
  const [isPast, setIsPast] = useState(() => window.scrollY > offset);
  useEffect(() => {
    const onScroll = () => setIsPast(window.scrollY > offset);
    window.addEventListener('scroll', onScroll, { passive: true });
    // A scroll between the first render and this effect (a restored position, a quick flick)
    // sent no event this listener heard.
    onScroll();
    return () => window.removeEventListener('scroll', onScroll);
  }, [offset]);
  return isPast;
}

function AuthActions() {
  const { isLoading, isAuthenticated, currentOrgId } = useAuth();
  if (isLoading) return <LoadingIndicator label="Checking your session…" className="w-24" />;
  if (isAuthenticated) {
    return (
      <ButtonLink to={homePathFor(currentOrgId)} size="sm">
        {currentOrgId ? 'Go to Dashboard' : 'Finish Setup'}
      </ButtonLink>
    );
  }
  return (
    <>
      <ButtonLink to={paths.login} variant="ghost" size="sm">
        Sign In
      </ButtonLink>
      <ButtonLink to={paths.signup} size="sm">
        Get Started
      </ButtonLink>
    </>
  );
}

export function LandingNav() {
  const isSolid = useScrolledPast(SOLID_NAV_SCROLL_PX);
  return (
    <header
      data-solid={isSolid}
      className={cn(
        'fixed inset-x-0 top-0 z-40 transition-colors duration-200',
        isSolid
          ? 'border-b border-slate-200 bg-white/95 shadow-sm backdrop-blur'
          : 'bg-transparent',
      )}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-6 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Sections" className="hidden flex-1 justify-center md:flex">
          <ul className="flex gap-8">
            {anchors.map((anchor) => (
              <li key={anchor.href}>
                <a
                  href={anchor.href}
                  className="rounded text-sm font-medium text-slate-700 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-600"
                >
                  {anchor.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-2 md:ml-0">
          <AuthActions />
        </div>
      </div>
    </header>
  );
}
