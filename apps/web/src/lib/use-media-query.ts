import { useCallback, useSyncExternalStore } from 'react';

/** Whether the window matches a CSS media query now; follows changes (rotating a phone). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Tailwind's `sm` breakpoint: narrower than this is a phone. */
export const PHONE_QUERY = '(max-width: 639.98px)';
