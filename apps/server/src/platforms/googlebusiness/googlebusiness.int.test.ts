import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { integrations } from '../../db/schema.js';
import { toStoredAccount } from '../../modules/integrations/integrations.service.js';
import { settleGbpSettings } from '../../modules/posts/gbp-settings.js';
import { createTestApp, TEST_PUBLIC_URL } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { emuInject, expectPlatformError, useHarness } from '../../test/network-tests.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { imageMedia } from '../../test/publish-media.js';
import { publishInOneGo } from '../publish-steps.js';
import type { PlatformAdapter, PublishRequest, StoredAccount } from '../types.js';
import type { InboxAdapter } from '../inbox-types.js';
import type { MetricsAdapter } from '../types.js';

/** Herald and its Google Business Profile sandbox (Google's consent page, the four APIs). */
const t = useHarness(() =>
  createTestApp({ TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 14).toString('base64') }),
);
let adapter: PlatformAdapter & { inbox?: InboxAdapter; metrics?: MetricsAdapter };
beforeAll(() => {
  adapter = t.networks.get('googlebusiness')!.adapter;
});

const SLUG = 'googlebusiness';
const emu = async (method: 'GET' | 'POST', path: string, payload?: object) =>
  (await emuInject(t, SLUG, method, path, payload)).json();

const request = (
  text: string,
  settings: Record<string, unknown> = {},
  media: PublishRequest['media'] = [],
): PublishRequest => ({
  text,
  media,
  idempotencyKey: `key-${randomBytes(4).toString('hex')}`,
  settings,
});

async function storedOf(orgId: string): Promise<StoredAccount[]> {
  const rows = await t.database.db
    .select()
    .from(integrations)
    .where(eq(integrations.organizationId, orgId));
  return rows.map((row) => toStoredAccount(t.cipher, row));
}

const postsOf = async (location: StoredAccount) =>
  (
    (await emu('GET', `local-posts?locationId=${location.externalId}`)) as {
      localPosts: Array<Record<string, unknown>>;
    }
  ).localPosts;

describe('Google Business Profile through Herald and its sandbox', () => {
  let location: StoredAccount;

  it('offers every location of every account the Google user manages, and connects the chosen ones', async () => {
    const { owner, orgId } = await createOrg(t.app, 'gbp.int.agency@example.com');
    const done = await connectThroughSandbox(t.app, owner, SLUG, orgId, {
      account: 'Agency Ann',
      fields: {
        locations: 'Corner Bakery, Night Bakery (unverified)',
        group_locations: 'Harbour Cafe, Station Cafe',
      },
    });
    const pick = new URL(done).searchParams.get('pick');
    expect(pick).toBeTruthy();
    const pending = await owner.call(
      'GET',
      `/api/organizations/${orgId}/integrations/pending/${pick}`,
    );
    const offered = pending.body.data.accounts as Array<{
      externalId: string;
      name: string;
      unavailableReason: string | null;
    }>;
    expect(offered.map((a) => a.name)).toEqual([
      'Corner Bakery',
      'Night Bakery',
      'Harbour Cafe',
      'Station Cafe',
    ]);
    // A location Google has not verified is shown, not choosable.
    expect(offered[1]!.unavailableReason).toMatch(/not verified this location/);
    const chosen = await owner.call(
      'POST',
      `/api/organizations/${orgId}/integrations/pending/${pick}`,
      { externalIds: [offered[0]!.externalId, offered[2]!.externalId] },
    );
    expect(chosen.status).toBeLessThan(300);
    const stored = await storedOf(orgId);
    expect(stored.map((s) => s.externalId).sort()).toEqual(
      [offered[0]!.externalId, offered[2]!.externalId].sort(),
    );
    location = stored.find((s) => s.externalId === offered[0]!.externalId)!;
    expect(location.externalId).toMatch(/^\d+$/);
    expect(location.extra.accountName).toMatch(/^accounts\/\d+$/);
    expect(location.tokens.refreshToken).toMatch(/^1\/\//);
    expect(location.tokens.scopes).toContain('https://www.googleapis.com/auth/business.manage');
    // The group's location posts under the group's account.
    const cafe = stored.find((s) => s.externalId === offered[2]!.externalId)!;
    expect(cafe.extra.accountName).not.toBe(location.extra.accountName);
  });

  it('connects a single location without a choice', async () => {
    const { owner, orgId } = await createOrg(t.app, 'gbp.int.single@example.com');
    const done = await connectThroughSandbox(t.app, owner, SLUG, orgId, {
      account: 'Solo Sam',
      fields: { locations: 'Sam Shoes', group_locations: '' },
    });
    expect(done.startsWith(`${TEST_PUBLIC_URL}/settings?`)).toBe(true);
    expect(new URL(done).searchParams.get('connected')).toBe('Google Business Profile');
    expect(await storedOf(orgId)).toHaveLength(1);
  });

  it('publishes an update with a button and a photo Google fetches by URL', async () => {
    const photo = await imageMedia('bread.jpg', { width: 800, height: 600 });
    const result = await publishInOneGo(
      adapter.publishing!,
      location,
      request(
        'Fresh sourdough every morning.',
        {
          topicType: 'STANDARD',
          callToAction: { actionType: 'ORDER', url: 'https://bakery.example/order' },
        },
        [photo],
      ),
    );
    expect(result.externalId).toMatch(/^accounts\/\d+\/locations\/\d+\/localPosts\/\d+$/);
    expect(result.permalink).toMatch(/^https:\/\/local\.google\.com\//);
    const [made] = await postsOf(location);
    expect(made).toMatchObject({
      name: result.externalId,
      summary: 'Fresh sourdough every morning.',
      topicType: 'STANDARD',
      callToAction: { actionType: 'ORDER', url: 'https://bakery.example/order' },
      media: [{ mediaFormat: 'PHOTO', sourceUrl: photo.url }],
    });
  });

  it('publishes an event with its title and schedule', async () => {
    const result = await publishInOneGo(
      adapter.publishing!,
      location,
      request('Come and bake with us.', {
        topicType: 'EVENT',
        event: {
          title: 'Baking class',
          startDate: '2026-12-12',
          startTime: '10:00',
          endDate: '2026-12-12',
          endTime: '12:30',
        },
        callToAction: { actionType: 'BOOK', url: 'https://bakery.example/book' },
      }),
    );
    const made = (await postsOf(location)).find((p) => p.name === result.externalId);
    expect(made).toMatchObject({
      topicType: 'EVENT',
      event: {
        title: 'Baking class',
        schedule: {
          startDate: { year: 2026, month: 12, day: 12 },
          startTime: { hours: 10, minutes: 0 },
          endDate: { year: 2026, month: 12, day: 12 },
          endTime: { hours: 12, minutes: 30 },
        },
      },
    });
  });

  it('publishes an offer with its coupon, redeem link and terms', async () => {
    const result = await publishInOneGo(
      adapter.publishing!,
      location,
      request('Two loaves for one this week.', {
        topicType: 'OFFER',
        event: { title: 'Two for one', startDate: '2026-12-01', endDate: '2026-12-07' },
        offer: {
          couponCode: 'TWOFORONE',
          redeemOnlineUrl: 'https://bakery.example/redeem',
          termsConditions: 'One per customer.',
        },
      }),
    );
    const made = (await postsOf(location)).find((p) => p.name === result.externalId);
    expect(made).toMatchObject({
      topicType: 'OFFER',
      event: { title: 'Two for one' },
      offer: {
        couponCode: 'TWOFORONE',
        redeemOnlineUrl: 'https://bakery.example/redeem',
        termsConditions: 'One per customer.',
      },
    });
  });

  it('passes on Google’s refusals in its own words: too long a summary, an event without dates', async () => {
    const long = await expectPlatformError(
      publishInOneGo(adapter.publishing!, location, request('x'.repeat(1501))),
    );
    expect(long.kind).toBe('bad_request');
    expect(long.message).toMatch(
      /Google said: Request contains an invalid argument\. \(summary: The summary is too long/,
    );
    const undated = await expectPlatformError(
      publishInOneGo(
        adapter.publishing!,
        location,
        request('Soon.', { topicType: 'EVENT', event: { title: 'Party' } }),
      ),
    );
    expect(undated.message).toMatch(/event\.schedule: The schedule needs a start date/);
    // The composer refuses the same at writing time, in Herald's words.
    expect(() =>
      settleGbpSettings(
        [{ integrationId: 'a', networkName: 'Google Business Profile', label: 'Bakery' }],
        { a: { topicType: 'EVENT', event: null, offer: null, callToAction: null } },
        false,
      ),
    ).toThrow(
      /Bakery: An event post needs a title\. Bakery: An event post needs a start and an end date\./,
    );
  });

  it('says a project Google has not approved gets quota 0, and how to apply', async () => {
    await emu('POST', 'scenario', { account: 'agency_ann', knob: 'not_approved', on: true });
    const refused = await expectPlatformError(
      publishInOneGo(adapter.publishing!, location, request('Hello')),
    );
    await emu('POST', 'scenario', { account: 'agency_ann', knob: 'not_approved', on: false });
    expect(refused.kind).toBe('rate_limited');
    expect(refused.message).toMatch(/Google said: Quota exceeded for quota metric 'Requests'/);
    expect(refused.message).toMatch(
      /not approved.*developers\.google\.com\/my-business\/content\/prereqs/,
    );
  });

  it('makes one post when the answer is lost, or Herald crashes before recording it', async () => {
    const publishing = adapter.publishing!;
    const lostReq = request('Lost answer loaf');
    const lostState = await publishing.prepare(location, lostReq);
    await emu('POST', 'scenario', {
      account: 'agency_ann',
      knob: 'finalize_timeout',
      on: true,
      value: 1,
    });
    const lost = await expectPlatformError(publishing.finalize(location, lostReq, lostState));
    expect(lost.kind).toBe('unknown_outcome');
    const found = await publishing.reconcile!(location, lostReq, lostState);
    const made = (await postsOf(location)).filter((p) => p.summary === 'Lost answer loaf');
    expect(made).toHaveLength(1);
    expect(found?.externalId).toBe(made[0]!.name);

    // A crash between the call and its record: the watchdog reconciles instead of posting again.
    const crashReq = request('Crash loaf', {
      topicType: 'EVENT',
      event: { title: 'Crash', startDate: '2026-12-20', endDate: '2026-12-21' },
    });
    const state = await publishing.prepare(location, crashReq);
    await publishing.finalize(location, crashReq, state);
    const again = await publishing.reconcile!(location, crashReq, state);
    const crashMade = (await postsOf(location)).filter((p) => p.summary === 'Crash loaf');
    expect(crashMade).toHaveLength(1);
    expect(again?.externalId).toBe(crashMade[0]!.name);

    // Nothing was made: reconcile says so, and the retry may post.
    const neverReq = request('Never sent loaf');
    expect(
      await publishing.reconcile!(location, neverReq, await publishing.prepare(location, neverReq)),
    ).toBeNull();
  });

  it('renews the access token with the refresh token, and asks to reconnect on invalid_grant', async () => {
    const renewed = await adapter.refresh!(location);
    expect(renewed.accessToken).not.toBe(location.tokens.accessToken);
    expect(renewed.refreshToken).toBe(location.tokens.refreshToken);
    location = { ...location, tokens: renewed };
    await emu('POST', 'scenario', { account: 'agency_ann', knob: 'refresh_fails', on: true });
    const refused = await expectPlatformError(adapter.refresh!(location));
    await emu('POST', 'scenario', { account: 'agency_ann', knob: 'refresh_fails', on: false });
    expect(refused.kind).toBe('reauth');
    expect(refused.message).toMatch(/Token has been expired or revoked.*Reconnect/);
  });

  it('brings reviews into the inbox with their stars, and creates, replaces and deletes the reply', async () => {
    const inbox = adapter.inbox!;
    const { review } = (await emu('POST', 'reviews', {
      locationId: location.externalId,
      author: 'Paula Pie',
      rating: 4,
      comment: 'Great croissants, slow queue.',
    })) as { review: { name: string } };
    const first = await inbox.poll(location, null);
    const event = first.events.find((e) => e.externalId === review.name)!;
    expect(event).toMatchObject({
      kind: 'comment',
      direction: 'in',
      // The stars are a field of their own; the words stay as written.
      text: 'Great croissants, slow queue.',
      rating: 4,
      author: { name: 'Paula Pie' },
    });
    // The review the location had before Herald came arrived with it.
    expect(
      first.events.find((e) => e.text.startsWith('Friendly staff') && e.rating === 5),
    ).toBeTruthy();
    expect((await inbox.poll(location, first.cursor)).events).toEqual([]);

    const thread = {
      kind: 'comments' as const,
      threadExternalId: review.name,
      participantExternalId: event.author.externalId,
      rootPostExternalId: null,
    };
    const sent = await inbox.replyToComment!(location, thread, review.name, 'Thank you, Paula!');
    expect(sent.externalId.startsWith(`${review.name}/reply@`)).toBe(true);
    // An edit is a new reply that replaces the first at Google.
    const edited = await inbox.replyToComment!(
      location,
      thread,
      review.name,
      'Thank you, Paula! Come again.',
    );
    expect(edited.externalId).not.toBe(sent.externalId);
    const stored = (await emu('GET', `reviews?locationId=${location.externalId}`)) as {
      reviews: Array<{ name: string; reviewReply?: { comment: string } }>;
    };
    expect(stored.reviews.find((r) => r.name === review.name)?.reviewReply?.comment).toBe(
      'Thank you, Paula! Come again.',
    );
    const afterReply = await inbox.poll(location, first.cursor);
    expect(afterReply.events.find((e) => e.direction === 'out')).toMatchObject({
      externalId: edited.externalId,
      text: 'Thank you, Paula! Come again.',
      parentExternalId: review.name,
    });
    expect(
      await inbox.findSent!(location, thread, 'Thank you, Paula! Come again.', new Date(0)),
    ).toMatchObject({
      externalId: edited.externalId,
    });

    // Deleting our reply removes it at Google; the review itself cannot be deleted.
    await inbox.deleteComment!(location, edited.externalId);
    const gone = (await emu('GET', `reviews?locationId=${location.externalId}`)) as {
      reviews: Array<{ name: string; reviewReply?: unknown }>;
    };
    expect(gone.reviews.find((r) => r.name === review.name)?.reviewReply).toBeUndefined();
    const afterDelete = await inbox.poll(location, afterReply.cursor);
    expect(afterDelete.events.find((e) => e.externalId === edited.externalId)).toMatchObject({
      deleted: true,
    });
    const refused = await expectPlatformError(inbox.deleteComment!(location, review.name));
    expect(refused.message).toMatch(/does not let a business delete a review/);
  });

  it('reads the location’s daily impressions, calls, website clicks and direction requests, and its reviews', async () => {
    await emu('POST', 'performance', {
      locationId: location.externalId,
      values: {
        BUSINESS_IMPRESSIONS_MOBILE_MAPS: 40,
        BUSINESS_IMPRESSIONS_MOBILE_SEARCH: 30,
        BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: 5,
        CALL_CLICKS: 3,
        WEBSITE_CLICKS: 7,
        BUSINESS_DIRECTION_REQUESTS: 2,
      },
    });
    const values = await adapter.metrics!.accountMetrics(location);
    expect(values).toMatchObject({
      views: 75,
      interactions: 12,
      raw: {
        CALL_CLICKS: 3,
        WEBSITE_CLICKS: 7,
        BUSINESS_DIRECTION_REQUESTS: 2,
        // The review every sandbox location starts with (five stars), and Paula's four.
        totalReviewCount: 2,
        averageRating: 4.5,
      },
    });
    // Google gives no figures per local post.
    expect(
      await adapter.metrics!.postMetrics(location, { externalId: 'x', publishedAt: new Date() }),
    ).toBeNull();
  });
});
