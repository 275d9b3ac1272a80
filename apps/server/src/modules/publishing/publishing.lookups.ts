/**
 * The publishing states other modules count by (the health metrics, the processes' view of held
 * files); they import them from here, not the repository.
 */
export { HELD, POST_STATUSES_THAT_PUBLISH } from './targets.repository.js';
