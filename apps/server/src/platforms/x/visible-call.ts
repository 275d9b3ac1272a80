import { visibleCallOf } from '../deadlines.js';

/** X's visible calls (docs/networks.md#x-idempotency: no idempotency key, so never a blind retry). */
export const visibleCall = visibleCallOf('X');
