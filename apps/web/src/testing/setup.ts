import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { toast } from 'react-hot-toast';
import { afterEach, vi } from 'vitest';

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

afterEach(() => {
  cleanup();
  toast.remove();
  window.localStorage.clear();
});
