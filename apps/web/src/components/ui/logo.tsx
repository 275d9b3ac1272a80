import { Link } from 'react-router';
import { cn } from '@/lib/cn';

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-8', className)} aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="#4f46e5" />
      <path d="M10 8v16M22 8v16M10 16h12" stroke="#fff" strokeWidth="3.2" strokeLinecap="round" />
    </svg>
  );
}

/** The Herald mark and name, linking to `to` (the landing page by default). */
export function Logo({ to = '/', className }: { to?: string; className?: string }) {
  return (
    <Link
      to={to}
      className={cn(
        'inline-flex items-center gap-2 rounded-md text-xl font-bold tracking-tight text-slate-900',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        className,
      )}
    >
      <LogoMark />
      <span>Herald</span>
    </Link>
  );
}
