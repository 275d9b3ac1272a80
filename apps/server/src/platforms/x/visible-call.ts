import { visibleCallOf } from '../deadlines.js';

/** X's visible calls (§1.7: no idempotency key, so never a blind retry). */
export const visibleCall = visibleCallOf('X');
