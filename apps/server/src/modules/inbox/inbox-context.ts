import type { Db } from '../../db/client.js';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import type { InboxAdapter, InboxCapabilities } from '../../platforms/inbox-types.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import { toStoredAccount } from '../integrations/integrations.service.js';
import type { AccountContext, Teammates } from './inbox-dto.js';
import * as repo from './inbox.repository.js';

export interface InboxDeps {
  db: Db;
  networks: Map<string, NetworkRuntime>;
  cipher: TokenCipher;
  now?: () => Date;
}

export const nowOf = (deps: InboxDeps) => deps.now?.() ?? new Date();

export const isUuid = (v: string) => z.uuid().safeParse(v).success;

export const notFound = () =>
  new AppError('NOT_FOUND', 'This conversation does not exist in this organization.');

/** The inbox half of the network an account belongs to, or null when Herald reads nothing there. */
export function inboxOf(
  networks: Map<string, NetworkRuntime>,
  platformName: string,
): { network: NetworkRuntime; inbox: InboxAdapter } | null {
  const network = [...networks.values()].find((n) => n.name === platformName);
  return network?.adapter.inbox ? { network, inbox: network.adapter.inbox } : null;
}

export const readsSomething = (c: InboxCapabilities) => c.dm || c.comments || c.mentions;

/** The accounts of these conversations, with what their networks can do (read once per request). */
export async function accountContexts(deps: InboxDeps, organizationId: string, ids: string[]) {
  const rows = await repo.integrationsByIds(deps.db, organizationId, [...new Set(ids)]);
  const map = new Map<string, AccountContext>();
  for (const { integration, platformName } of rows) {
    const inbox = inboxOf(deps.networks, platformName)?.inbox ?? null;
    let account = null;
    let caps = null;
    if (inbox && integration.status === 'CONNECTED') {
      try {
        account = toStoredAccount(deps.cipher, integration);
        caps = inbox.capabilities(account);
      } catch {
        account = null;
      }
    }
    map.set(integration.id, { integration, platformName, inbox, caps, account });
  }
  return map;
}

export async function teammatesOf(db: Db, ids: Array<string | null>): Promise<Teammates> {
  const rows = await repo.usersByIds(db, [...new Set(ids.filter((v): v is string => !!v))]);
  return new Map(rows.map((u) => [u.id, u]));
}

/** One conversation of the organization, or 404 (also for another organization's ids). */
export async function loadConversation(db: Db, organizationId: string, conversationId: string) {
  if (!isUuid(conversationId)) throw notFound();
  const row = await repo.findConversation(db, organizationId, conversationId);
  if (!row) throw notFound();
  return row;
}

/** The account of one of the organization's conversations; null when there is none such. */
export async function conversationAccount(
  db: Db,
  organizationId: string,
  conversationId: string,
): Promise<string | null> {
  if (!isUuid(conversationId)) return null;
  return (await repo.findConversation(db, organizationId, conversationId))?.integrationId ?? null;
}
