import { GbpPostSettingsSchema, emptyGbpSettings, type GbpPostSettings } from '@herald/contract';
import { asUnconfirmed, pageReachesBefore, PlatformError } from '../errors.js';
import type {
  PublishingAdapter,
  PublishRequest,
  PublishResult,
  PublishState,
  StoredAccount,
} from '../types.js';
import type { GbpApi, GbpDate, GbpLocalPost, GbpTime } from './api.js';
import { v4ParentOf } from './location.js';
import { GBP_RECONCILE_PAGE } from './limits.js';

const NETWORK = 'Google Business Profile';
const token = (account: StoredAccount) => account.tokens.accessToken;

/** The settings chosen in the composer; unreadable ones are a plain update (Google judges the rest). */
function settingsOf(request: PublishRequest): GbpPostSettings {
  const parsed = GbpPostSettingsSchema.safeParse(request.settings ?? {});
  return parsed.success ? parsed.data : emptyGbpSettings();
}

const dateOf = (d: string | null): GbpDate | undefined => {
  if (!d) return undefined;
  const [year, month, day] = d.split('-').map(Number) as [number, number, number];
  return { year, month, day };
};
const timeOf = (t: string | null): GbpTime | undefined => {
  if (!t) return undefined;
  const [hours, minutes] = t.split(':').map(Number) as [number, number];
  return { hours, minutes, seconds: 0, nanos: 0 };
};

/**
 * The v4 `LocalPost` Herald sends (docs/networks.md#google-business-profile-publishing): the text
 * as `summary`, the type, the event (title and schedule, also an offer's), the offer, the button,
 * and the photo by its public URL, which Google fetches. Nothing is checked here that Google
 * checks itself: its refusal comes back in its own words.
 */
export function localPostOf(request: PublishRequest): Record<string, unknown> {
  const s = settingsOf(request);
  const post: Record<string, unknown> = {
    languageCode: 'en',
    summary: request.text,
    topicType: s.topicType,
  };
  if (s.topicType !== 'STANDARD' && s.event) {
    const e = s.event;
    post.event = {
      title: e.title,
      schedule: {
        startDate: dateOf(e.startDate),
        startTime: timeOf(e.startTime),
        endDate: dateOf(e.endDate),
        endTime: timeOf(e.endTime),
      },
    };
  }
  if (s.topicType === 'OFFER' && s.offer)
    post.offer = Object.fromEntries(Object.entries(s.offer).filter(([, v]) => v !== ''));
  if (s.callToAction)
    post.callToAction = {
      actionType: s.callToAction.actionType,
      ...(s.callToAction.url ? { url: s.callToAction.url } : {}),
    };
  if (request.media.length)
    post.media = request.media.map((m) => ({
      mediaFormat: m.kind === 'video' ? 'VIDEO' : 'PHOTO',
      sourceUrl: m.url,
    }));
  return post;
}

const resultOf = (post: GbpLocalPost): PublishResult => ({
  externalId: post.name,
  permalink: post.searchUrl ?? null,
  extra: { state: post.state ?? null, topicType: post.topicType ?? null },
});

/**
 * Local posts: one visible call (`localPosts.create`), nothing to prepare. v4 takes no
 * idempotency key, so an unknown outcome is settled by listing the location's newest posts
 * (`localPosts.list`) and finding this one by its text, type and event title, made after prepare.
 */
export function createGbpPublishing(api: GbpApi): PublishingAdapter {
  return {
    preparesLocally: () => true,

    async prepare(): Promise<PublishState> {
      return { preparedAt: new Date().toISOString() };
    },

    async check() {
      return { status: 'ready' };
    },

    async finalize(account, request) {
      try {
        const made = await api.createLocalPost(
          token(account),
          v4ParentOf(account),
          localPostOf(request),
        );
        return resultOf(made);
      } catch (err) {
        throw asUnconfirmed(NETWORK, err);
      }
    },

    async reconcile(account, request, state) {
      const wanted = localPostOf(request);
      const since =
        typeof state.preparedAt === 'string' ? Date.parse(state.preparedAt) - 5 * 60_000 : 0;
      const { posts, more } = await api.localPosts(
        token(account),
        v4ParentOf(account),
        GBP_RECONCILE_PAGE,
      );
      const found = posts.find(
        (p) =>
          p.summary === wanted.summary &&
          (p.topicType ?? 'STANDARD') === wanted.topicType &&
          (p.event?.title ?? '') ===
            ((wanted.event as { title?: string } | undefined)?.title ?? '') &&
          // A post Google names no time for may be the attempt: it is not ruled out.
          (p.createTime === undefined || Date.parse(p.createTime) >= since),
      );
      if (found) return resultOf(found);
      // All of the location's posts, or a newest-first page reaching back past the attempt.
      if (!more) return null;
      if (
        pageReachesBefore(
          posts.map((p) => Date.parse(p.createTime ?? '')),
          since,
        )
      )
        return null;
      throw new PlatformError(
        'unknown_outcome',
        'Google did not confirm the post, and the location has had too many posts since for Herald to find it among them.',
      );
    },
  };
}
