import type { Db } from '../../db/client.js';
import * as repo from './organizations.repository.js';

/**
 * Takes the organization's row until the transaction ends. Every change that counts or orders
 * what an organization holds takes it first, so two such changes wait for each other: two creates
 * cannot both take a plan's last place, two admins cannot remove each other and leave none, and
 * the queue's re-shuffle does not interleave with a post being created. One lock for all of them
 * also means they can never deadlock on each other's locks.
 */
export function lockOrganization(db: Db, organizationId: string) {
  return repo.lockOrganization(db, organizationId);
}
