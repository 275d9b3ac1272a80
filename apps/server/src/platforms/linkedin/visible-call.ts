import { visibleCallOf } from '../deadlines.js';

/** LinkedIn's visible calls (docs/networks.md#linkedin-idempotency: no idempotency key, so never a blind retry). */
export const visibleCall = visibleCallOf('LinkedIn');
