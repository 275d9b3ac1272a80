import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.js';
import { callFault } from '../kit/call-knobs.js';
import { bearerToken } from '../kit/consent.js';
import { fetchReceivedMedia } from '../kit/media-facts.js';
import { mediaUrlProblem } from '../meta/helpers.js';
import type { AccessCheck, SandboxOAuth } from '../kit/oauth-state.js';
import { emuTenant, notYours } from '../kit/tenant.js';
import type { SandboxStore } from '../store.js';
import type { Businesses } from './businesses.js';
import type { GbpPubSub, NotificationSetting } from './pubsub.js';
import {
  BUSINESS_MANAGE,
  digits,
  GBP_EMULATOR,
  gbpError,
  notApproved,
  unauthenticated,
  validationError,
} from './google.js';

type Access = Extract<AccessCheck, { ok: true }>;
type Query = Record<string, string | string[] | undefined>;

interface SandboxPost {
  name: string;
  locationId: string;
  summary: string;
  topicType: string;
  event: Record<string, unknown> | null;
  offer: Record<string, unknown> | null;
  callToAction: { actionType: string; url?: string } | null;
  media: Array<{ mediaFormat: string; sourceUrl: string }>;
  createTime: string;
}

interface SandboxReview {
  name: string;
  reviewId: string;
  locationId: string;
  reviewer: { displayName: string; isAnonymous: boolean };
  starRating: string;
  comment: string;
  createTime: string;
  updateTime: string;
  reviewReply: { comment: string; updateTime: string } | null;
}

const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'];
/** The Notifications API's `NotificationType` values. */
const NOTIFICATION_TYPES = [
  'GOOGLE_UPDATE',
  'NEW_REVIEW',
  'UPDATED_REVIEW',
  'NEW_CUSTOMER_MEDIA',
  'NEW_QUESTION',
  'UPDATED_QUESTION',
  'NEW_ANSWER',
  'UPDATED_ANSWER',
  'DUPLICATE_LOCATION',
  'LOSS_OF_VOICE_OF_MERCHANT',
  'VOICE_OF_MERCHANT_UPDATED',
];
const METRICS = [
  'BUSINESS_IMPRESSIONS_DESKTOP_MAPS',
  'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH',
  'BUSINESS_IMPRESSIONS_MOBILE_MAPS',
  'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
  'BUSINESS_CONVERSATIONS',
  'BUSINESS_DIRECTION_REQUESTS',
  'CALL_CLICKS',
  'WEBSITE_CLICKS',
  'BUSINESS_BOOKINGS',
  'BUSINESS_FOOD_ORDERS',
  'BUSINESS_FOOD_MENU_CLICKS',
];

const iso = (ms: number) => new Date(ms).toISOString();
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The Business Profile APIs as the emulator plays them (docs/networks.md#google-business-profile-sandbox):
 * Account Management's accounts, Business Information's locations (readMask required), v4 local
 * posts and reviews, and Performance's daily metrics, each refusing as Google does, in its
 * google.rpc.Status shape. Knobs: `not_approved` (a project Google has not approved: quota 0,
 * every call 429), and the publishing ones (`finalize_timeout` makes the post, then loses the answer).
 */
export function registerGbpApiRoutes(
  scope: FastifyInstance,
  ctx: SandboxContext,
  oauth: SandboxOAuth,
  store: SandboxStore,
  businesses: Businesses,
  pubsub: GbpPubSub,
) {
  async function access(
    request: FastifyRequest,
    reply: FastifyReply,
    service: string,
  ): Promise<Access | null> {
    const check = await oauth.verifyAccess(bearerToken(request));
    if (!check.ok) {
      unauthenticated(reply);
      return null;
    }
    if (check.scenario.isOn('not_approved')) {
      notApproved(reply, service);
      return null;
    }
    if (
      !check.scopes.includes(BUSINESS_MANAGE) &&
      !check.scopes.some((s) => s.endsWith('business.manage'))
    ) {
      gbpError(reply, 403, 'Request had insufficient authentication scopes.', [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
          domain: 'googleapis.com',
        },
      ]);
      return null;
    }
    const fault = await callFault(check.scenario);
    if (fault === 'rate_limit') {
      gbpError(
        reply,
        429,
        `Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service '${service}'.`,
      );
      return null;
    }
    if (fault === 'fail') {
      gbpError(reply, 500, 'Internal error encountered.');
      return null;
    }
    return check;
  }

  /** The location of `accounts/{a}/locations/{l}` when the caller manages it; else Google's refusal. */
  async function managedLocation(
    a: Access,
    reply: FastifyReply,
    accountId: string,
    locationId: string,
  ) {
    const found = await businesses.location(locationId);
    if (!found || found.account !== `accounts/${accountId}`) {
      gbpError(reply, 404, 'Requested entity was not found.');
      return null;
    }
    if (found.userId !== a.account.id) {
      gbpError(reply, 403, 'The caller does not have permission');
      return null;
    }
    if (!found.location.verified) {
      gbpError(reply, 400, 'Precondition check failed. The location is not verified.');
      return null;
    }
    return found;
  }

  const posts = async (locationId: string) =>
    (await store.get<{ list: SandboxPost[] }>('gbp_posts', locationId))?.list ?? [];
  const reviews = async (locationId: string) =>
    (await store.get<{ list: SandboxReview[] }>('gbp_reviews', locationId))?.list ?? [];
  const saveReviews = (locationId: string, list: SandboxReview[]) =>
    store.put('gbp_reviews', locationId, { list });

  const postResource = (p: SandboxPost) => ({
    name: p.name,
    languageCode: 'en',
    summary: p.summary,
    topicType: p.topicType,
    state: 'LIVE',
    createTime: p.createTime,
    updateTime: p.createTime,
    searchUrl: `https://local.google.com/place?id=${p.locationId}&use=posts&lpsid=${p.name.split('/').at(-1)}`,
    ...(p.event ? { event: p.event } : {}),
    ...(p.offer ? { offer: p.offer } : {}),
    ...(p.callToAction ? { callToAction: p.callToAction } : {}),
    ...(p.media.length
      ? {
          media: p.media.map((m) => ({
            ...m,
            googleUrl: `https://lh3.googleusercontent.com/p/${p.name.split('/').at(-1)}`,
          })),
        }
      : {}),
  });

  const reviewResource = (r: SandboxReview) => ({
    name: r.name,
    reviewId: r.reviewId,
    reviewer: r.reviewer,
    starRating: r.starRating,
    ...(r.comment ? { comment: r.comment } : {}),
    createTime: r.createTime,
    updateTime: r.updateTime,
    ...(r.reviewReply ? { reviewReply: r.reviewReply } : {}),
  });

  /** GET mybusinessaccountmanagement.googleapis.com/v1/accounts */
  scope.get('/v1/accounts', async (request, reply) => {
    const a = await access(request, reply, 'mybusinessaccountmanagement.googleapis.com');
    if (!a) return reply;
    const list = await businesses.of(a.account);
    return {
      accounts: list.map((b) => ({
        name: b.name,
        accountName: b.accountName,
        type: b.type,
        verificationState: 'VERIFIED',
        vettedState: 'NOT_VETTED',
      })),
    };
  });

  /** GET mybusinessbusinessinformation.googleapis.com/v1/accounts/{a}/locations?readMask= */
  scope.get('/v1/accounts/:accountId/locations', async (request, reply) => {
    const a = await access(request, reply, 'mybusinessbusinessinformation.googleapis.com');
    if (!a) return reply;
    const { accountId } = request.params as { accountId: string };
    const q = request.query as Query;
    if (!one(q.readMask))
      return gbpError(reply, 400, 'Request contains an invalid argument.', [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [{ field: 'read_mask', description: 'Field is required' }],
        },
      ]);
    const account = (await businesses.of(a.account)).find(
      (b) => b.name === `accounts/${accountId}`,
    );
    if (!account) return gbpError(reply, 403, 'The caller does not have permission');
    return {
      locations: account.locations.map((l) => ({
        name: `locations/${l.id}`,
        title: l.title,
        storefrontAddress: {
          addressLines: [`${l.title.length} Main Street`],
          locality: l.locality,
        },
        metadata: {
          mapsUri: `https://maps.google.com/maps?cid=${l.id}`,
          newReviewUri: `https://search.google.com/local/writereview?placeid=ChIJ${l.id}`,
          placeId: `ChIJ${l.id}`,
          hasVoiceOfMerchant: l.verified,
        },
      })),
    };
  });

  /** POST mybusiness.googleapis.com/v4/accounts/{a}/locations/{l}/localPosts */
  scope.post('/v4/accounts/:accountId/locations/:locationId/localPosts', async (request, reply) => {
    const a = await access(request, reply, 'mybusiness.googleapis.com');
    if (!a) return reply;
    const { accountId, locationId } = request.params as { accountId: string; locationId: string };
    if (!(await managedLocation(a, reply, accountId, locationId))) return reply;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const problems: Array<{ field: string; message: string }> = [];
    const summary = typeof body.summary === 'string' ? body.summary : '';
    const topicType = typeof body.topicType === 'string' ? body.topicType : 'STANDARD';
    const media = Array.isArray(body.media) ? (body.media as Array<Record<string, unknown>>) : [];
    if ([...summary].length > GBP_EMULATOR.summaryMax)
      problems.push({
        field: 'summary',
        message: `The summary is too long: at most ${GBP_EMULATOR.summaryMax} characters.`,
      });
    if (!summary.trim() && media.length === 0)
      problems.push({ field: 'summary', message: 'A post needs a summary or a photo.' });
    if (!(GBP_EMULATOR.topicTypes as readonly string[]).includes(topicType))
      problems.push({ field: 'topic_type', message: `Invalid value: ${topicType}.` });
    else if (topicType === 'ALERT')
      problems.push({ field: 'topic_type', message: 'Alert posts cannot be created.' });
    const event = (body.event ?? null) as {
      title?: string;
      schedule?: Record<string, unknown>;
    } | null;
    if (topicType === 'EVENT' || topicType === 'OFFER') {
      if (!event?.title?.trim())
        problems.push({ field: 'event.title', message: 'The event title is required.' });
      const s = event?.schedule ?? {};
      if (!s.startDate || !s.endDate)
        problems.push({
          field: 'event.schedule',
          message: 'The schedule needs a start date and an end date.',
        });
    }
    const cta = (body.callToAction ?? null) as { actionType?: string; url?: string } | null;
    // Google ignores the button of an offer.
    if (cta && topicType !== 'OFFER') {
      if (
        !cta.actionType ||
        !(GBP_EMULATOR.actionTypes as readonly string[]).includes(cta.actionType)
      )
        problems.push({
          field: 'call_to_action.action_type',
          message: `Invalid value: ${cta.actionType ?? ''}.`,
        });
      else if (cta.actionType !== 'CALL' && !cta.url)
        problems.push({
          field: 'call_to_action.url',
          message: 'The URL is required for this action type.',
        });
    }
    if (media.length > 1)
      problems.push({ field: 'media', message: 'Only one photo can be added to a post.' });
    for (const m of media.slice(0, 1)) {
      if (m.mediaFormat !== 'PHOTO') {
        problems.push({
          field: 'media.media_format',
          message: 'Only photos can be added to a post.',
        });
        continue;
      }
      const url = typeof m.sourceUrl === 'string' ? m.sourceUrl : '';
      const problem = mediaUrlProblem(url, await oauth.now(), ctx.runsLocally);
      if (problem) {
        problems.push({
          field: 'media.source_url',
          message: 'The photo could not be fetched from its URL.',
        });
        continue;
      }
      // A file the sandbox cannot read (adapter tests hand out URLs nothing serves) is not judged.
      const file = await fetchReceivedMedia(ctx.fetchMedia, url);
      if (!file) continue;
      if (!file.format || !(GBP_EMULATOR.photoFormats as readonly string[]).includes(file.format))
        problems.push({
          field: 'media.source_url',
          message: 'The photo must be a JPG or PNG file.',
        });
      if (file.size > GBP_EMULATOR.photoMaxBytes)
        problems.push({ field: 'media.source_url', message: 'The photo must be at most 5 MB.' });
      if (
        file.width !== null &&
        file.height !== null &&
        (file.width < GBP_EMULATOR.photoMin.width || file.height < GBP_EMULATOR.photoMin.height)
      )
        problems.push({
          field: 'media.source_url',
          message: 'The photo must be at least 250 x 250 pixels.',
        });
    }
    if (problems.length) return validationError(reply, problems);
    const made: SandboxPost = {
      name: `accounts/${accountId}/locations/${locationId}/localPosts/${digits(19)}`,
      locationId,
      summary,
      topicType,
      event: topicType === 'STANDARD' ? null : (event as Record<string, unknown>),
      offer: topicType === 'OFFER' ? ((body.offer ?? {}) as Record<string, unknown>) : null,
      callToAction: cta && topicType !== 'OFFER' ? (cta as SandboxPost['callToAction']) : null,
      media: media.map((m) => ({
        mediaFormat: String(m.mediaFormat),
        sourceUrl: String(m.sourceUrl),
      })),
      createTime: iso(await oauth.now()),
    };
    await store.put('gbp_posts', locationId, { list: [made, ...(await posts(locationId))] });
    // finalize_timeout: the post is made, then the answer is lost.
    if ((await a.scenario.takeValue('finalize_timeout')) !== null) {
      reply.hijack();
      reply.raw.destroy();
      request.raw.destroy();
      return;
    }
    return postResource(made);
  });

  /** GET …/localPosts?pageSize=&pageToken= (newest first; 20 by default, at most 100). */
  scope.get('/v4/accounts/:accountId/locations/:locationId/localPosts', async (request, reply) => {
    const a = await access(request, reply, 'mybusiness.googleapis.com');
    if (!a) return reply;
    const { accountId, locationId } = request.params as { accountId: string; locationId: string };
    if (!(await managedLocation(a, reply, accountId, locationId))) return reply;
    const size = Number(one((request.query as Query).pageSize) ?? 20);
    if (!Number.isInteger(size) || size < 1 || size > GBP_EMULATOR.localPostsPageMax)
      return gbpError(reply, 400, 'Request contains an invalid argument.');
    const token = one((request.query as Query).pageToken);
    const from = token ? Number(Buffer.from(token, 'base64url').toString()) || 0 : 0;
    const all = await posts(locationId);
    const next =
      from + size < all.length ? Buffer.from(String(from + size)).toString('base64url') : null;
    return {
      localPosts: all.slice(from, from + size).map(postResource),
      ...(next ? { nextPageToken: next } : {}),
    };
  });

  /** GET …/reviews?pageSize=&pageToken=&orderBy= */
  scope.get('/v4/accounts/:accountId/locations/:locationId/reviews', async (request, reply) => {
    const a = await access(request, reply, 'mybusiness.googleapis.com');
    if (!a) return reply;
    const { accountId, locationId } = request.params as { accountId: string; locationId: string };
    if (!(await managedLocation(a, reply, accountId, locationId))) return reply;
    const q = request.query as Query;
    const size = Number(one(q.pageSize) ?? 50);
    if (!Number.isInteger(size) || size < 1 || size > GBP_EMULATOR.reviewsPageMax)
      return gbpError(reply, 400, 'Request contains an invalid argument.');
    const orderBy = one(q.orderBy) ?? 'updateTime desc';
    const all = await reviews(locationId);
    const sorted = [...all].sort((x, y) =>
      orderBy === 'rating'
        ? STARS.indexOf(x.starRating) - STARS.indexOf(y.starRating)
        : orderBy === 'rating desc'
          ? STARS.indexOf(y.starRating) - STARS.indexOf(x.starRating)
          : y.updateTime.localeCompare(x.updateTime),
    );
    const start = Number(one(q.pageToken) ?? 0) || 0;
    const page = sorted.slice(start, start + size);
    const rated = all.map((r) => STARS.indexOf(r.starRating) + 1);
    return {
      reviews: page.map(reviewResource),
      averageRating: rated.length
        ? Math.round((rated.reduce((s, n) => s + n, 0) / rated.length) * 10) / 10
        : 0,
      totalReviewCount: all.length,
      ...(start + size < sorted.length ? { nextPageToken: String(start + size) } : {}),
    };
  });

  async function reviewAt(request: FastifyRequest, reply: FastifyReply) {
    const a = await access(request, reply, 'mybusiness.googleapis.com');
    if (!a) return null;
    const { accountId, locationId, reviewId } = request.params as Record<string, string>;
    if (!(await managedLocation(a, reply, accountId!, locationId!))) return null;
    const list = await reviews(locationId!);
    const review = list.find((r) => r.reviewId === reviewId);
    if (!review) {
      gbpError(reply, 404, 'Requested entity was not found.');
      return null;
    }
    return { list, review, locationId: locationId! };
  }

  scope.get(
    '/v4/accounts/:accountId/locations/:locationId/reviews/:reviewId',
    async (request, reply) => {
      const found = await reviewAt(request, reply);
      return found ? reviewResource(found.review) : reply;
    },
  );

  /** PUT …/reviews/{r}/reply {comment}: creates the reply or replaces it. */
  scope.put(
    '/v4/accounts/:accountId/locations/:locationId/reviews/:reviewId/reply',
    async (request, reply) => {
      const found = await reviewAt(request, reply);
      if (!found) return reply;
      const comment = ((request.body ?? {}) as { comment?: unknown }).comment;
      if (typeof comment !== 'string' || !comment.trim())
        return gbpError(reply, 400, 'Request contains an invalid argument.', [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field: 'comment', description: 'The reply must not be empty.' }],
          },
        ]);
      if (Buffer.byteLength(comment) > GBP_EMULATOR.replyMaxBytes)
        return gbpError(reply, 400, 'Request contains an invalid argument.', [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [
              { field: 'comment', description: 'The reply is longer than 4096 bytes.' },
            ],
          },
        ]);
      const now = await oauth.now();
      // Two replies within one millisecond would share a time: Google's times are unique enough.
      const last = found.review.reviewReply ? Date.parse(found.review.reviewReply.updateTime) : 0;
      const at = iso(Math.max(now, last + 1));
      const reviewReply = { comment, updateTime: at };
      await saveReviews(
        found.locationId,
        found.list.map((r) =>
          r.reviewId === found.review.reviewId ? { ...r, reviewReply, updateTime: at } : r,
        ),
      );
      return reviewReply;
    },
  );

  scope.delete(
    '/v4/accounts/:accountId/locations/:locationId/reviews/:reviewId/reply',
    async (request, reply) => {
      const found = await reviewAt(request, reply);
      if (!found) return reply;
      if (!found.review.reviewReply) return gbpError(reply, 404, 'Requested entity was not found.');
      const at = iso(await oauth.now());
      await saveReviews(
        found.locationId,
        found.list.map((r) =>
          r.reviewId === found.review.reviewId ? { ...r, reviewReply: null, updateTime: at } : r,
        ),
      );
      return {};
    },
  );

  /** GET businessprofileperformance.googleapis.com/v1/locations/{l}:fetchMultiDailyMetricsTimeSeries */
  scope.get('/v1/locations/:call', async (request, reply) => {
    const { call } = request.params as { call: string };
    const match = /^(\d+):fetchMultiDailyMetricsTimeSeries$/.exec(call);
    if (!match) return gbpError(reply, 404, 'Requested entity was not found.');
    const a = await access(request, reply, 'businessprofileperformance.googleapis.com');
    if (!a) return reply;
    const locationId = match[1]!;
    const found = await businesses.location(locationId);
    if (!found || found.userId !== a.account.id)
      return gbpError(reply, 403, 'The caller does not have permission');
    const q = request.query as Query;
    const raw = q.dailyMetrics;
    const metrics = (Array.isArray(raw) ? raw : raw ? [raw] : []) as string[];
    const unknown = metrics.find((m) => !METRICS.includes(m));
    if (!metrics.length || unknown)
      return gbpError(reply, 400, `Request contains an invalid argument.`, [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [
            { field: 'daily_metrics', description: `Invalid value: ${unknown ?? '(none)'}` },
          ],
        },
      ]);
    const dateAt = (prefix: string) => {
      const y = Number(one(q[`${prefix}.year`]));
      const m = Number(one(q[`${prefix}.month`]));
      const d = Number(one(q[`${prefix}.day`]));
      return y && m && d ? Date.UTC(y, m - 1, d) : NaN;
    };
    const start = dateAt('dailyRange.startDate');
    const end = dateAt('dailyRange.endDate');
    if (Number.isNaN(start) || Number.isNaN(end) || end < start)
      return gbpError(reply, 400, 'Request contains an invalid argument.', [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [
            { field: 'daily_range', description: 'The start date must not be after the end date.' },
          ],
        },
      ]);
    const figures = (await store.get<Record<string, number>>('gbp_performance', locationId)) ?? {};
    const days: number[] = [];
    for (let t = start; t <= end; t += 86_400_000) days.push(t);
    return {
      multiDailyMetricTimeSeries: [
        {
          dailyMetricTimeSeries: metrics.map((m) => ({
            dailyMetric: m,
            timeSeries: {
              datedValues: days.map((t) => {
                const d = new Date(t);
                const date = {
                  year: d.getUTCFullYear(),
                  month: d.getUTCMonth() + 1,
                  day: d.getUTCDate(),
                };
                // Google leaves out the value of a day with none.
                const value = figures[m] ?? 0;
                return value ? { date, value: String(value) } : { date };
              }),
            },
          })),
        },
      ],
    };
  });

  /** The account's own, for the caller who manages it; else Google's refusal. */
  async function managedAccount(a: Access, reply: FastifyReply, accountId: string) {
    const account = (await businesses.of(a.account)).find(
      (b) => b.name === `accounts/${accountId}`,
    );
    if (!account) gbpError(reply, 403, 'The caller does not have permission');
    return account ?? null;
  }

  const settingOf = async (accountId: string) => ({
    name: `accounts/${accountId}/notificationSetting`,
    ...((await store.get<NotificationSetting>('gbp_notification_setting', accountId)) ?? {}),
  });

  /** GET mybusinessnotifications.googleapis.com/v1/accounts/{a}/notificationSetting */
  scope.get('/v1/accounts/:accountId/notificationSetting', async (request, reply) => {
    const a = await access(request, reply, 'mybusinessnotifications.googleapis.com');
    if (!a) return reply;
    const { accountId } = request.params as { accountId: string };
    if (!(await managedAccount(a, reply, accountId))) return reply;
    return settingOf(accountId);
  });

  /** PATCH …/v1/accounts/{a}/notificationSetting?updateMask=pubsubTopic,notificationTypes */
  scope.patch('/v1/accounts/:accountId/notificationSetting', async (request, reply) => {
    const a = await access(request, reply, 'mybusinessnotifications.googleapis.com');
    if (!a) return reply;
    const { accountId } = request.params as { accountId: string };
    if (!(await managedAccount(a, reply, accountId))) return reply;
    const mask = (one((request.query as Query).updateMask) ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const known = ['pubsubTopic', 'notificationTypes', 'pubsub_topic', 'notification_types'];
    if (mask.length === 0 || mask.some((f) => !known.includes(f)))
      return gbpError(reply, 400, 'Request contains an invalid argument.', [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [
            {
              field: 'update_mask',
              description: 'Only pubsubTopic and notificationTypes may be updated.',
            },
          ],
        },
      ]);
    const body = (request.body ?? {}) as { pubsubTopic?: unknown; notificationTypes?: unknown };
    const current = await settingOf(accountId);
    const next: NotificationSetting = {
      pubsubTopic: current.pubsubTopic ?? '',
      notificationTypes: current.notificationTypes ?? [],
    };
    if (mask.some((f) => f.startsWith('pubsub'))) {
      const topic = typeof body.pubsubTopic === 'string' ? body.pubsubTopic : '';
      if (
        topic &&
        !/^projects\/[a-z][a-z0-9-]{4,28}[a-z0-9]\/topics\/[A-Za-z][\w.~+%-]{2,254}$/.test(topic)
      )
        return gbpError(reply, 400, 'The pub/sub topic name supplied is invalid.', [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'INVALID_PUBSUB_TOPIC',
            domain: 'mybusinessnotifications.googleapis.com',
          },
        ]);
      next.pubsubTopic = topic;
    }
    if (mask.some((f) => f.startsWith('notification'))) {
      const types = Array.isArray(body.notificationTypes) ? body.notificationTypes : [];
      const unknown = types.find((t) => typeof t !== 'string' || !NOTIFICATION_TYPES.includes(t));
      if (unknown !== undefined)
        return gbpError(
          reply,
          400,
          `Invalid value at 'notification_setting.notification_types' (${JSON.stringify(unknown)}).`,
        );
      next.notificationTypes = [...new Set(types as string[])];
    }
    await store.put('gbp_notification_setting', accountId, next);
    return settingOf(accountId);
  });

  // ---- Test control (`/_emu/`), for the caller's own locations only ----

  async function ownLocation(request: FastifyRequest, locationId: string | undefined) {
    const tenant = emuTenant(request);
    const found = locationId ? await businesses.location(locationId) : null;
    if (!found || !tenant.owns(locationId)) throw notYours('location');
    return found;
  }

  /** A customer reviews a location (or edits their review). */
  scope.post('/_emu/reviews', async (request) => {
    const body = (request.body ?? {}) as {
      locationId?: string;
      author?: string;
      rating?: number;
      comment?: string;
      reviewId?: string;
    };
    const found = await ownLocation(request, body.locationId);
    const list = await reviews(found.location.id);
    const now = iso(await oauth.now());
    const rating = STARS[Math.min(5, Math.max(1, Math.round(Number(body.rating ?? 5)))) - 1]!;
    const existing = body.reviewId ? list.find((r) => r.reviewId === body.reviewId) : undefined;
    const reviewId = existing?.reviewId ?? `AbFvOq${digits(12)}`;
    const made: SandboxReview = existing
      ? {
          ...existing,
          starRating: rating,
          comment: body.comment ?? existing.comment,
          updateTime: now,
        }
      : {
          name: `${found.account}/locations/${found.location.id}/reviews/${reviewId}`,
          reviewId,
          locationId: found.location.id,
          reviewer: { displayName: body.author?.trim() || 'A customer', isAnonymous: false },
          starRating: rating,
          comment: body.comment ?? '',
          createTime: now,
          updateTime: now,
          reviewReply: null,
        };
    await saveReviews(found.location.id, [made, ...list.filter((r) => r.reviewId !== reviewId)]);
    // Google tells the account's notification topic, when one is set.
    await pubsub.notify(found.account, existing ? 'UPDATED_REVIEW' : 'NEW_REVIEW', made.name);
    return { review: reviewResource(made) };
  });

  /** The location's reviews as Google keeps them (assertions). */
  scope.get('/_emu/reviews', async (request) => {
    const found = await ownLocation(request, one((request.query as Query).locationId));
    return { reviews: (await reviews(found.location.id)).map(reviewResource) };
  });

  /** The location's local posts, newest first (assertions). */
  scope.get('/_emu/local-posts', async (request) => {
    const found = await ownLocation(request, one((request.query as Query).locationId));
    return { localPosts: (await posts(found.location.id)).map(postResource) };
  });

  /** Daily figures of a location: `{locationId, values: {CALL_CLICKS: 4, …}}`, every day alike. */
  scope.post('/_emu/performance', async (request) => {
    const body = (request.body ?? {}) as { locationId?: string; values?: Record<string, number> };
    const found = await ownLocation(request, body.locationId);
    await store.put('gbp_performance', found.location.id, body.values ?? {});
    return { ok: true };
  });
}
