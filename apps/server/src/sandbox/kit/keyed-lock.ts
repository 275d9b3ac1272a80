/** The emulators' per-key queue is the server's one (`lib/keyed-lock.ts`). */
export { createKeyedLock, type KeyedLock } from '../../lib/keyed-lock.js';
