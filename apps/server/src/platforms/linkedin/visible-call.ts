import { visibleCallOf } from '../deadlines.js';

/** LinkedIn's visible calls (§6.7: no idempotency key, so never a blind retry). */
export const visibleCall = visibleCallOf('LinkedIn');
