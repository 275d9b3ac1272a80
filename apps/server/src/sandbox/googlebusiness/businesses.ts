import type { SandboxAccount } from '../kit/oauth-state.js';
import type { SandboxStore } from '../store.js';
import { digits } from './google.js';

export interface SandboxLocation {
  id: string;
  title: string;
  locality: string;
  /** Google verified it (metadata.hasVoiceOfMerchant): posts and reviews work only then. */
  verified: boolean;
}

export interface SandboxBusinessAccount {
  /** `accounts/{id}` */
  name: string;
  accountName: string;
  type: 'PERSONAL' | 'LOCATION_GROUP';
  locations: SandboxLocation[];
}

const UNVERIFIED = /\s*\(unverified\)$/i;

/**
 * The Business Profile accounts each Google account of the emulator manages: its own (PERSONAL)
 * with the locations named on the consent page, and a location group when the person names
 * locations for one, as an agency's Google account manages many. A title ending in
 * "(unverified)" is a location Google has not verified. Names keep their ids when named again.
 */
export function createBusinesses(store: SandboxStore) {
  async function of(user: SandboxAccount): Promise<SandboxBusinessAccount[]> {
    return (
      (await store.get<{ list: SandboxBusinessAccount[] }>('gbp_accounts', user.id))?.list ?? []
    );
  }

  const locate = (existing: SandboxLocation[], typed: string): SandboxLocation => {
    const title = typed.replace(UNVERIFIED, '').trim();
    const verified = !UNVERIFIED.test(typed);
    const found = existing.find((l) => l.title === title);
    return found
      ? { ...found, verified }
      : { id: digits(19), title, locality: 'Springfield', verified };
  };

  async function save(user: SandboxAccount, list: SandboxBusinessAccount[]) {
    await store.put('gbp_accounts', user.id, { list });
    for (const a of list)
      for (const l of a.locations) {
        const known = await store.get('gbp_location', l.id);
        await store.put('gbp_location', l.id, { userId: user.id, account: a.name });
        if (!known) await seedReview(a.name, l);
      }
  }

  /**
   * A business on Google has reviews before Herald comes: each new location starts with one,
   * from yesterday, so the first import on connect has something to bring.
   */
  async function seedReview(account: string, location: SandboxLocation) {
    const reviewId = `AbFvOq${digits(12)}`;
    const at = new Date(Date.now() - 86_400_000).toISOString();
    await store.put('gbp_reviews', location.id, {
      list: [
        {
          name: `${account}/locations/${location.id}/reviews/${reviewId}`,
          reviewId,
          locationId: location.id,
          reviewer: { displayName: 'Sam Sample', isAnonymous: false },
          starRating: 'FIVE',
          comment: `Friendly staff at ${location.title}, we will be back.`,
          createTime: at,
          updateTime: at,
          reviewReply: null,
        },
      ],
    });
  }

  return {
    of,
    /** The user's accounts with exactly these locations (own, and a group when `group` names some). */
    async set(user: SandboxAccount, own: string[], group: string[]) {
      const list = await of(user);
      const personal = list.find((a) => a.type === 'PERSONAL');
      const existingGroup = list.find((a) => a.type === 'LOCATION_GROUP');
      const next: SandboxBusinessAccount[] = [
        {
          name: personal?.name ?? `accounts/${digits(21)}`,
          accountName: user.name,
          type: 'PERSONAL',
          locations: (own.length ? own : [user.name]).map((t) =>
            locate(personal?.locations ?? [], t),
          ),
        },
      ];
      if (group.length)
        next.push({
          name: existingGroup?.name ?? `accounts/${digits(21)}`,
          accountName: `${user.name} locations`,
          type: 'LOCATION_GROUP',
          locations: group.map((t) => locate(existingGroup?.locations ?? [], t)),
        });
      await save(user, next);
      return next;
    },
    /** Who manages the location: the Google user and the account it sits in. */
    async ownerOf(locationId: string) {
      return store.get<{ userId: string; account: string }>('gbp_location', locationId);
    },
    async location(locationId: string) {
      const owner = await this.ownerOf(locationId);
      if (!owner) return null;
      const list =
        (await store.get<{ list: SandboxBusinessAccount[] }>('gbp_accounts', owner.userId))?.list ??
        [];
      for (const a of list)
        for (const l of a.locations) if (l.id === locationId) return { ...owner, location: l };
      return null;
    },
  };
}
export type Businesses = ReturnType<typeof createBusinesses>;
