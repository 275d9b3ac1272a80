import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

/** docs/product.md#composer-autosave: what a member leaving unsent work reads. */
export const LEAVE_TITLE = 'Leave without sending?';
export const LEAVE_MESSAGE =
  'This post is not sent yet. Its text and settings are kept as your autosaved draft, but files you added in this browser will be lost.';

/**
 * Warns before the page is left with unsent changes: a navigation inside the app asks first
 * (a dialog), closing or reloading the tab shows the browser's own warning. `allowLeaving`
 * lets the navigation after a successful send through.
 */
export function useLeaveGuard(dirty: boolean) {
  const allowed = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !allowed.current && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (allowed.current) return;
      event.preventDefault();
      // Older browsers show the warning only when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const dialog = (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked') blocker.reset();
      }}
      title={LEAVE_TITLE}
      message={LEAVE_MESSAGE}
      confirmLabel="Leave"
      cancelLabel="Stay and keep editing"
      onConfirm={() => {
        if (blocker.state === 'blocked') blocker.proceed();
      }}
    />
  );

  return {
    dialog,
    /** Lets the next navigations through (the post was sent or the draft discarded). */
    allowLeaving: () => {
      allowed.current = true;
    },
  };
}
