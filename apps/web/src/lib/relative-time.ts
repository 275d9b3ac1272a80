import { useSyncExternalStore } from 'react';

/**
 * docs/product.md#constants: under 5 seconds 'Just now', then whole seconds, minutes, hours and days "ago". A
 * time slightly in the future (clocks differ a little) also reads 'Just now'.
 */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return 'Invalid date';
  const seconds = Math.max(0, Math.floor((now - time) / 1000));
  if (seconds < 5) return 'Just now';
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

/** How often relative times on screen move on. */
const TICK_MS = 5_000;

// One clock for the whole page: a list of a hundred times re-renders on one interval.
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    // The clock was idle: start it from the current time.
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The current time, refreshed every few seconds while a component shows it. */
export function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
}

/** `relativeTime` that keeps itself up to date. */
export function useRelativeTime(iso: string): string {
  return relativeTime(iso, useNow());
}
