import { cn } from '@/lib/cn';

export function Spinner({ className }: { className?: string }) {
  return (
    <svg
      className={cn('size-5 animate-spin text-indigo-600', className)}
      viewBox="0 0 24 24"
      fill="none"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="3" opacity="0.25" />
      <path
        d="M22 12a10 10 0 0 0-10-10"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** A spinner that screen readers announce; `label` says what is being waited for. */
export function LoadingIndicator({ label, className }: { label: string; className?: string }) {
  return (
    <div role="status" className={cn('flex items-center justify-center gap-3', className)}>
      <Spinner />
      <span className="sr-only">{label}</span>
    </div>
  );
}

/** Fills the viewport while the session is checked, so no screen is ever blank. */
export function FullPageSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <main className="grid min-h-dvh place-items-center bg-slate-50">
      <LoadingIndicator label={label} />
    </main>
  );
}
