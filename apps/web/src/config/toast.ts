/** Toast timing from docs/product.md#constants, in milliseconds. Loading toasts stay until replaced. */
export const TOAST_DURATIONS = {
  blank: 4000,
  error: 4000,
  success: 2000,
  loading: Infinity,
} as const;

/** At most this many toasts are kept on screen; older ones are dismissed first. */
export const TOAST_LIMIT = 20;

/** Screens whose toasts stay longer than the defaults (docs/product.md#constants). */
export const SCREEN_TOAST_DURATIONS = {
  teamError: 5000,
  inviteSuccess: 4000,
  inviteError: 5000,
  /** "Metrics refreshed: …" says what was read and what waits: longer than a plain success. */
  analyticsRefreshed: 4000,
} as const;
