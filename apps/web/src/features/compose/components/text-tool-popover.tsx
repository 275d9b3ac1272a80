import type { LucideIcon } from 'lucide-react';
import { useEffect, useId, type ReactNode } from 'react';

/**
 * A small button beside a text that opens a panel under it (the emoji picker, hashtag groups).
 * Escape closes the panel from anywhere, since the focus goes back to the text after each pick.
 */
export function TextToolPopover({
  label,
  icon: Icon,
  panelLabel,
  panelWidth,
  open,
  onOpenChange,
  disabled,
  children,
}: {
  /** The button's name ("Add emoji for X"); it never repeats the text's own label. */
  label: string;
  icon: LucideIcon;
  panelLabel: string;
  /** A Tailwind width class for the panel. */
  panelWidth: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  const panelId = useId();
  useEffect(() => {
    if (!open) return;
    const close = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onOpenChange(false);
    };
    document.addEventListener('keydown', close);
    return () => document.removeEventListener('keydown', close);
  }, [open, onOpenChange]);
  return (
    <div className="relative">
      <button
        type="button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={panelId}
        disabled={disabled}
        onClick={() => onOpenChange(!open)}
        className="inline-flex size-8 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <Icon className="size-4" aria-hidden="true" />
      </button>
      {open && (
        <div
          id={panelId}
          role="group"
          aria-label={panelLabel}
          className={`absolute right-0 z-20 mt-1 ${panelWidth} rounded-xl border border-slate-200 bg-white p-3 shadow-lg`}
        >
          {children}
        </div>
      )}
    </div>
  );
}
