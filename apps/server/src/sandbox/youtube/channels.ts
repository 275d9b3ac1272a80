import type { SandboxAccount } from '../kit/oauth-state.js';
import { handleOf } from '../kit/html.js';
import type { SandboxStore } from '../store.js';
import { channelId } from './google.js';

export interface SandboxChannel {
  id: string;
  title: string;
  /** `@handle`, YouTube's customUrl. */
  handle: string;
  subscribers: number;
  createdAt: number;
}

/**
 * The channels each Google account of the emulator owns: its own first, then its brand
 * accounts. A channel keeps its id when the person names it again.
 */
export function createYouTubeChannels(store: SandboxStore) {
  const make = (title: string): SandboxChannel => ({
    id: channelId(),
    title,
    handle: `@${handleOf(title, 'channel', 30).replace(/_/g, '')}`,
    subscribers: 0,
    createdAt: Date.now(),
  });

  async function of(account: SandboxAccount): Promise<SandboxChannel[]> {
    return (await store.get<{ list: SandboxChannel[] }>('channels', account.id))?.list ?? [];
  }

  async function save(account: SandboxAccount, list: SandboxChannel[]) {
    await store.put('channels', account.id, { list });
    for (const c of list) await store.put('channel_owner', c.id, { accountId: account.id });
  }

  return {
    of,
    async ensure(account: SandboxAccount) {
      const list = await of(account);
      if (list.length) return list;
      const created = [make(account.name)];
      await save(account, created);
      return created;
    },
    /** The account's own channel and exactly these brand channels. */
    async setBrands(account: SandboxAccount, titles: string[]) {
      const list = await of(account);
      const own = list[0] ?? make(account.name);
      const brands = titles
        .filter((t) => t !== own.title)
        .map((t) => list.find((c) => c.title === t) ?? make(t));
      await save(account, [own, ...brands]);
    },
    async ownerOf(id: string) {
      return (await store.get<{ accountId: string }>('channel_owner', id))?.accountId ?? null;
    },
    async find(account: SandboxAccount, id: string) {
      return (await of(account)).find((c) => c.id === id) ?? null;
    },
  };
}
export type YouTubeChannels = ReturnType<typeof createYouTubeChannels>;
