import { googleTokenCalls } from '../google-oauth.js';
import { requestJson } from '../oauth.js';
import type { AdapterSettings } from '../types.js';
import { describeGbpError, type GbpRequest } from './errors.js';
import { GBP_LIST_PAGE, GBP_REVIEWS_PAGE } from './limits.js';

/**
 * Where Google and the Business Profile APIs live (docs/networks.md#sandboxes): production or the
 * sandbox, same paths. Four hosts: Account Management, Business Information, the v4 API (local
 * posts, reviews) and Performance.
 */
export interface GbpUrls {
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  /** https://mybusinessaccountmanagement.googleapis.com/v1 */
  accountsBase: string;
  /** https://mybusinessbusinessinformation.googleapis.com/v1 */
  infoBase: string;
  /** https://mybusiness.googleapis.com/v4 */
  v4Base: string;
  /** https://businessprofileperformance.googleapis.com/v1 */
  performanceBase: string;
  /** https://mybusinessnotifications.googleapis.com/v1: where review notifications are set. */
  notificationsBase: string;
  /** Google's signing keys of the tokens it sends with Pub/Sub pushes (OpenID Connect JWKS). */
  jwksUrl: string;
}

/** The review notifications Herald asks for: a review came, or a review changed. */
export const GBP_REVIEW_NOTIFICATIONS = ['NEW_REVIEW', 'UPDATED_REVIEW'] as const;

/** Notifications API `NotificationSetting`: one per Business Profile account. */
export interface GbpNotificationSetting {
  /** `accounts/{a}/notificationSetting` */
  name?: string;
  pubsubTopic?: string;
  notificationTypes?: string[];
}

/** Account Management `Account`. */
export interface GbpAccount {
  /** `accounts/{id}` */
  name: string;
  accountName?: string;
  type?: string;
}

/** Business Information `Location` (the fields of Herald's readMask). */
export interface GbpLocation {
  /** `locations/{id}` */
  name: string;
  title?: string;
  storefrontAddress?: { locality?: string; addressLines?: string[] };
  websiteUri?: string;
  metadata?: {
    mapsUri?: string;
    newReviewUri?: string;
    placeId?: string;
    hasVoiceOfMerchant?: boolean;
  };
}

export interface GbpDate {
  year: number;
  month: number;
  day: number;
}
export interface GbpTime {
  hours: number;
  minutes: number;
  seconds?: number;
  nanos?: number;
}

/** v4 `LocalPost`. */
export interface GbpLocalPost {
  /** `accounts/{a}/locations/{l}/localPosts/{p}` */
  name: string;
  languageCode?: string;
  summary?: string;
  topicType?: string;
  state?: string;
  createTime?: string;
  updateTime?: string;
  searchUrl?: string;
  callToAction?: { actionType: string; url?: string };
  event?: {
    title?: string;
    schedule?: { startDate?: GbpDate; startTime?: GbpTime; endDate?: GbpDate; endTime?: GbpTime };
  };
  offer?: { couponCode?: string; redeemOnlineUrl?: string; termsConditions?: string };
  media?: Array<{ mediaFormat: string; sourceUrl?: string; googleUrl?: string }>;
}

export type GbpStarRating = 'ONE' | 'TWO' | 'THREE' | 'FOUR' | 'FIVE' | 'STAR_RATING_UNSPECIFIED';

/** v4 `Review`. */
export interface GbpReview {
  /** `accounts/{a}/locations/{l}/reviews/{r}` */
  name: string;
  reviewId?: string;
  reviewer?: { displayName?: string; profilePhotoUrl?: string; isAnonymous?: boolean };
  starRating?: GbpStarRating;
  comment?: string;
  createTime?: string;
  updateTime?: string;
  reviewReply?: { comment?: string; updateTime?: string };
}

export interface GbpTimeSeries {
  multiDailyMetricTimeSeries?: Array<{
    dailyMetricTimeSeries?: Array<{
      dailyMetric?: string;
      timeSeries?: { datedValues?: Array<{ date?: GbpDate; value?: string }> };
    }>;
  }>;
}

const JSON_UTF8 = 'application/json; charset=UTF-8';

/** Typed calls to Google's OAuth endpoints and the Business Profile APIs (raw URLs: v4 has no client). */
export function createGbpApi(settings: AdapterSettings<GbpUrls>) {
  const { urls, http } = settings;

  function call<T>(url: string, init: RequestInit, request: GbpRequest = 'api') {
    return requestJson<T>(http, 'Google', url, init, describeGbpError(request));
  }

  const api = <T>(token: string, url: string, init: RequestInit = {}) =>
    call<T>(url, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body ? { 'content-type': JSON_UTF8 } : {}),
        ...(init.headers ?? {}),
      },
    });

  return {
    ...googleTokenCalls(settings, call),

    /** Every Business Profile account the Google user can manage (its own, location groups…). */
    async accounts(accessToken: string): Promise<GbpAccount[]> {
      const out: GbpAccount[] = [];
      let pageToken: string | undefined;
      do {
        const query = new URLSearchParams({
          pageSize: String(GBP_LIST_PAGE),
          ...(pageToken ? { pageToken } : {}),
        });
        const body = await api<{ accounts?: GbpAccount[]; nextPageToken?: string }>(
          accessToken,
          `${urls.accountsBase}/accounts?${query.toString()}`,
        );
        out.push(...(body?.accounts ?? []));
        pageToken = body?.nextPageToken;
      } while (pageToken);
      return out;
    },

    /** The account's locations, with the fields Herald keeps (`readMask` is required). */
    async locations(accessToken: string, account: string): Promise<GbpLocation[]> {
      const out: GbpLocation[] = [];
      let pageToken: string | undefined;
      do {
        const query = new URLSearchParams({
          pageSize: String(GBP_LIST_PAGE),
          readMask: 'name,title,storefrontAddress,websiteUri,metadata',
          ...(pageToken ? { pageToken } : {}),
        });
        const body = await api<{ locations?: GbpLocation[]; nextPageToken?: string }>(
          accessToken,
          `${urls.infoBase}/${account}/locations?${query.toString()}`,
        );
        out.push(...(body?.locations ?? []));
        pageToken = body?.nextPageToken;
      } while (pageToken);
      return out;
    },

    createLocalPost: (accessToken: string, parent: string, post: object) =>
      api<GbpLocalPost>(accessToken, `${urls.v4Base}/${parent}/localPosts`, {
        method: 'POST',
        body: JSON.stringify(post),
      }),

    async localPosts(accessToken: string, parent: string, pageSize: number) {
      const body = await api<{ localPosts?: GbpLocalPost[]; nextPageToken?: string }>(
        accessToken,
        `${urls.v4Base}/${parent}/localPosts?pageSize=${pageSize}`,
      );
      return { posts: body?.localPosts ?? [], more: Boolean(body?.nextPageToken) };
    },

    /** Newest changes first (`orderBy=updateTime desc`). */
    reviews: (accessToken: string, parent: string, pageToken?: string) => {
      const query = new URLSearchParams({
        pageSize: String(GBP_REVIEWS_PAGE),
        orderBy: 'updateTime desc',
        ...(pageToken ? { pageToken } : {}),
      });
      return api<{
        reviews?: GbpReview[];
        averageRating?: number;
        totalReviewCount?: number;
        nextPageToken?: string;
      }>(accessToken, `${urls.v4Base}/${parent}/reviews?${query.toString()}`);
    },

    review: (accessToken: string, name: string) =>
      api<GbpReview>(accessToken, `${urls.v4Base}/${name}`),

    /** Creates the review's reply, or replaces the one it has. */
    putReply: (accessToken: string, review: string, comment: string) =>
      api<{ comment?: string; updateTime?: string }>(
        accessToken,
        `${urls.v4Base}/${review}/reply`,
        {
          method: 'PUT',
          body: JSON.stringify({ comment }),
        },
      ),

    async deleteReply(accessToken: string, review: string) {
      await api<unknown>(accessToken, `${urls.v4Base}/${review}/reply`, { method: 'DELETE' });
    },

    /** The account's Pub/Sub notification setting (empty when none is set). */
    notificationSetting: (accessToken: string, account: string) =>
      api<GbpNotificationSetting>(
        accessToken,
        `${urls.notificationsBase}/${account}/notificationSetting`,
      ),

    /** Sets the account's one notification setting: its topic and the notifications sent there. */
    setNotificationSetting: (
      accessToken: string,
      account: string,
      setting: GbpNotificationSetting,
    ) =>
      api<GbpNotificationSetting>(
        accessToken,
        `${urls.notificationsBase}/${account}/notificationSetting?updateMask=pubsubTopic,notificationTypes`,
        {
          method: 'PATCH',
          body: JSON.stringify({ name: `${account}/notificationSetting`, ...setting }),
        },
      ),

    dailyMetrics(
      accessToken: string,
      location: string,
      metrics: readonly string[],
      range: { start: GbpDate; end: GbpDate },
    ) {
      const query = new URLSearchParams();
      for (const m of metrics) query.append('dailyMetrics', m);
      const put = (prefix: string, d: GbpDate) => {
        query.set(`${prefix}.year`, String(d.year));
        query.set(`${prefix}.month`, String(d.month));
        query.set(`${prefix}.day`, String(d.day));
      };
      put('dailyRange.startDate', range.start);
      put('dailyRange.endDate', range.end);
      return api<GbpTimeSeries>(
        accessToken,
        `${urls.performanceBase}/${location}:fetchMultiDailyMetricsTimeSeries?${query.toString()}`,
      );
    },
  };
}

export type GbpApi = ReturnType<typeof createGbpApi>;
