/**
 * The one planner of evergreen fills (docs/evergreen.md): the job fills what it plans for the
 * next hours, and the calendar shows what it plans for the range on screen. Pure: it is given
 * the slots, what occupies them and each post's past uses, and answers which post of which
 * collection goes in which empty slot.
 */

const DAY_MS = 86_400_000;

export interface PlannerPost {
  postId: string;
  position: number;
  label: string;
  /** When the post itself went out (its own publication counts for the interval), if it did. */
  publishedAt: number | null;
}

export interface PlannerCollection {
  id: string;
  name: string;
  integrationIds: string[];
  minDaysBetween: number;
  endAfterCycles: number | null;
  endAt: number | null;
  createdAt: number;
  posts: PlannerPost[];
}

/** A copy made earlier: its collection, the post it copies and its slot. */
export interface PastFill {
  collectionId: string;
  sourcePostId: string;
  slotAt: number;
}

export interface PlannerInput {
  collections: PlannerCollection[];
  fills: PastFill[];
  /** Each account's slot instants within the window (epoch ms). */
  slotTimes: Map<string, readonly number[]>;
  /** Each account's occupied instants (posts waiting or going out at that time). */
  occupied: Map<string, ReadonlySet<number>>;
  /** Posts of collections not to use in this plan (`${collectionId}:${postId}`). */
  skip?: ReadonlySet<string>;
}

export interface PlannedFill {
  at: number;
  collectionId: string;
  collectionName: string;
  integrationIds: string[];
  postId: string;
  label: string;
}

/** The instants every account of `ids` has as a slot. */
function commonTimes(ids: readonly string[], slotTimes: PlannerInput['slotTimes']): number[] {
  const [first, ...others] = ids.map((id) => new Set(slotTimes.get(id) ?? []));
  if (!first) return [];
  return [...first].filter((at) => others.every((set) => set.has(at))).sort((a, b) => a - b);
}

/**
 * Walks the window's slot times in order. At each time, of the collections whose accounts all
 * have that slot and all are free then, the one whose last fill is oldest goes first (ties: the
 * older collection); it takes its post used longest ago (never used first, then by position)
 * among those whose every use — and its own publication — is at least `minDaysBetween` days from
 * this slot, and that has gone out fewer than `endAfterCycles` times. Nothing is placed after a
 * collection's `endAt`, nor in a slot where the collection already made a copy (a deleted copy
 * leaves its slot to the others).
 */
export function planFills(input: PlannerInput): PlannedFill[] {
  const uses = new Map<string, number[]>();
  const lastFill = new Map<string, number>();
  const filledSlots = new Set<string>();
  for (const fill of input.fills) {
    const key = `${fill.collectionId}:${fill.sourcePostId}`;
    uses.set(key, [...(uses.get(key) ?? []), fill.slotAt]);
    lastFill.set(fill.collectionId, Math.max(lastFill.get(fill.collectionId) ?? 0, fill.slotAt));
    filledSlots.add(`${fill.collectionId}@${fill.slotAt}`);
  }
  const taken = new Map<string, Set<number>>();
  const isFree = (id: string, at: number) =>
    !input.occupied.get(id)?.has(at) && !taken.get(id)?.has(at);

  const times = new Map<string, Set<number>>();
  const all = new Set<number>();
  for (const c of input.collections) {
    const common = commonTimes(c.integrationIds, input.slotTimes);
    times.set(c.id, new Set(common));
    for (const at of common) all.add(at);
  }

  const planned: PlannedFill[] = [];
  for (const at of [...all].sort((a, b) => a - b)) {
    const candidates = input.collections
      .filter(
        (c) =>
          c.posts.length > 0 &&
          times.get(c.id)!.has(at) &&
          (c.endAt === null || at <= c.endAt) &&
          !filledSlots.has(`${c.id}@${at}`) &&
          c.integrationIds.every((id) => isFree(id, at)),
      )
      .sort(
        (a, b) =>
          (lastFill.get(a.id) ?? -Infinity) - (lastFill.get(b.id) ?? -Infinity) ||
          a.createdAt - b.createdAt ||
          a.id.localeCompare(b.id),
      );
    for (const c of candidates) {
      const gap = c.minDaysBetween * DAY_MS;
      const eligible = c.posts
        .map((p) => {
          const used = uses.get(`${c.id}:${p.postId}`) ?? [];
          return { p, used, last: used.length > 0 ? Math.max(...used) : null };
        })
        .filter(
          ({ p, used }) =>
            !input.skip?.has(`${c.id}:${p.postId}`) &&
            (c.endAfterCycles === null || used.length < c.endAfterCycles) &&
            used.every((u) => Math.abs(at - u) >= gap) &&
            (p.publishedAt === null || Math.abs(at - p.publishedAt) >= gap),
        )
        .sort(
          (a, b) => (a.last ?? -Infinity) - (b.last ?? -Infinity) || a.p.position - b.p.position,
        );
      const chosen = eligible[0];
      if (!chosen) continue;
      const key = `${c.id}:${chosen.p.postId}`;
      uses.set(key, [...chosen.used, at]);
      lastFill.set(c.id, Math.max(lastFill.get(c.id) ?? 0, at));
      for (const id of c.integrationIds) taken.set(id, (taken.get(id) ?? new Set()).add(at));
      planned.push({
        at,
        collectionId: c.id,
        collectionName: c.name,
        integrationIds: c.integrationIds,
        postId: chosen.p.postId,
        label: chosen.p.label,
      });
      break;
    }
  }
  return planned;
}

/**
 * Whether a collection has reached its end at `now`: its end date passed, or every post went
 * out `endAfterCycles` times.
 */
export function hasEnded(
  c: Pick<PlannerCollection, 'endAt' | 'endAfterCycles' | 'posts' | 'id'>,
  fills: readonly PastFill[],
  now: number,
) {
  if (c.endAt !== null && now > c.endAt) return true;
  if (c.endAfterCycles === null || c.posts.length === 0) return false;
  return c.posts.every(
    (p) =>
      fills.filter((f) => f.collectionId === c.id && f.sourcePostId === p.postId).length >=
      c.endAfterCycles!,
  );
}
