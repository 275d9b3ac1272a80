import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'react-hot-toast';
import { afterEach, beforeEach, vi } from 'vitest';
import { installFakeEventSource } from './fake-event-source';

// Lazy routes load their code on first use; on a loaded CI machine that can take seconds.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks a few browser APIs that the router, Radix and react-hot-toast touch.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// Every test may open the live notification stream; each gets a fresh fake (unstubbed after it).
beforeEach(() => {
  installFakeEventSource();
});

afterEach(() => {
  cleanup();
  toast.remove();
  window.localStorage.clear();
});
