import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Logo } from '@/components/ui/logo';
import { cn } from '@/lib/cn';

/** Literal class names, so Tailwind sees them: the drawer exists only below that width. */
const HIDDEN_FROM = { md: 'md:hidden', lg: 'lg:hidden' } as const;

/**
 * A sidebar as a drawer on small screens (a dialog, so focus stays inside while open): the app
 * shell's and the back-office's phone menus.
 */
export function NavDrawer({
  open,
  onClose,
  home,
  title,
  description,
  hiddenFrom,
  children,
}: {
  open: boolean;
  onClose: () => void;
  /** Where the logo leads. */
  home: string;
  /** The dialog's name and description for screen readers. */
  title: string;
  description: string;
  hiddenFrom: keyof typeof HIDDEN_FROM;
  children: ReactNode;
}) {
  const hidden = HIDDEN_FROM[hiddenFrom];
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={cn('fixed inset-0 z-40 bg-slate-900/40', hidden)} />
        <Dialog.Content
          className={cn(
            'fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col gap-6 bg-white p-4 shadow-xl',
            hidden,
          )}
        >
          <div className="flex items-center justify-between">
            <Logo to={home} />
            <Dialog.Close
              aria-label="Close navigation menu"
              className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Dialog.Title className="sr-only">{title}</Dialog.Title>
          <Dialog.Description className="sr-only">{description}</Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
