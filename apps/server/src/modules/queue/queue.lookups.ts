/** What other modules read of the queue's storage; they import it from here, not the repository. */
export { organizationZone } from './queue.repository.js';
