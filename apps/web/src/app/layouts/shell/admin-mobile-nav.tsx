import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';
import { AdminNavLinks } from './admin-nav';

/**
 * The back-office sidebar as a drawer on phones, as the app shell's MobileNav is (a dialog, so
 * focus stays inside while open): every page one under the other, none out of sight.
 */
export function AdminMobileNav({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40 md:hidden" />
        <Dialog.Content className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col gap-6 bg-white p-4 shadow-xl md:hidden">
          <div className="flex items-center justify-between">
            <Logo to={paths.adminDashboard} />
            <Dialog.Close
              aria-label="Close navigation menu"
              className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Dialog.Title className="sr-only">Back-office navigation</Dialog.Title>
          <Dialog.Description className="sr-only">Pages of the back-office</Dialog.Description>
          <nav aria-label="Back-office menu" className="flex-1 overflow-y-auto">
            <AdminNavLinks onNavigate={onClose} />
          </nav>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
