import { timeLimited } from '../deadlines.js';
import { PlatformError } from '../errors.js';
import { requestJson } from '../oauth.js';
import type { AdapterSettings } from '../types.js';
import type { ThreadsUrls } from './api.js';
import { describeThreadsError } from './errors.js';
import { THREADS_GRAPH_VERSION, type ThreadsTiming } from './limits.js';

/** A container's processing state (docs/networks.md#threads-publishing); the value list is open-ended (docs/networks.md#open-questions, question 10). */
export interface ThreadsContainerStatus {
  id: string;
  status?: string;
  error_message?: string;
}

/** A post or reply as the Graph host answers it (docs/networks.md#threads-publishing, #threads-comments). */
export interface ThreadsMediaNode {
  id: string;
  text?: string;
  username?: string;
  permalink?: string;
  shortcode?: string;
  timestamp?: string;
  media_type?: string;
  has_replies?: boolean;
  replied_to?: { id: string };
  is_reply_owned_by_me?: boolean;
  hide_status?: string;
  profile_picture_url?: string;
}

export interface GraphPage<T> {
  data?: T[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string };
}

export interface ThreadsPublishingLimit {
  quota_usage?: number;
  config?: { quota_total?: number; quota_duration?: number };
}

/**
 * Typed calls for publishing and replies on the Threads Graph host. The token travels as the
 * `access_token` query parameter like the other Threads calls; POST parameters go in a form body.
 */
export function createThreadsPublishApi(
  settings: AdapterSettings<ThreadsUrls>,
  timing: ThreadsTiming,
) {
  const base = `${settings.urls.graphBase}/${THREADS_GRAPH_VERSION}`;
  const normal = timeLimited(settings.http, timing.requestTimeoutMs);
  const publishing = timeLimited(settings.http, timing.publishTimeoutMs);

  function graph<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    token: string,
    params: Record<string, string | undefined> = {},
    http = normal,
  ): Promise<T> {
    const defined = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
    const query = new URLSearchParams(method === 'POST' ? [] : defined);
    query.set('access_token', token);
    const init: RequestInit = { method };
    if (method === 'POST') {
      init.headers = { 'content-type': 'application/x-www-form-urlencoded' };
      init.body = new URLSearchParams(defined).toString();
    }
    return requestJson<T>(http, 'Threads', `${base}${path}?${query}`, init, describeThreadsError);
  }

  const idOf = (body: { id?: unknown } | null, what: string) => {
    if (body?.id === undefined || body.id === null)
      throw new PlatformError('transient', `Threads answered ${what} without an id.`);
    return String(body.id);
  };

  return {
    /** `POST /{user}/threads`: an invisible container (text, image, video, carousel, reply). */
    async createContainer(user: string, token: string, params: Record<string, string | undefined>) {
      return idOf(
        await graph<{ id?: unknown }>('POST', `/${user}/threads`, token, params),
        'a new container',
      );
    },

    containerStatus: (id: string, token: string) =>
      graph<ThreadsContainerStatus>('GET', `/${id}`, token, { fields: 'status,error_message' }),

    /** `POST /{user}/threads_publish`: the one visible call, with its own time limit. */
    async publish(user: string, token: string, creationId: string) {
      const body = await graph<{ id?: unknown }>(
        'POST',
        `/${user}/threads_publish`,
        token,
        { creation_id: creationId },
        publishing,
      );
      return idOf(body, 'the publish');
    },

    getMedia: (id: string, token: string, fields: readonly string[]) =>
      graph<ThreadsMediaNode>('GET', `/${id}`, token, { fields: fields.join(',') }),

    listThreads: (user: string, token: string, fields: readonly string[], limit: number) =>
      graph<GraphPage<ThreadsMediaNode>>('GET', `/${user}/threads`, token, {
        fields: fields.join(','),
        limit: String(limit),
      }),

    async publishingLimit(user: string, token: string): Promise<ThreadsPublishingLimit> {
      const body = await graph<GraphPage<ThreadsPublishingLimit>>(
        'GET',
        `/${user}/threads_publishing_limit`,
        token,
        { fields: 'quota_usage,config' },
      );
      return body?.data?.[0] ?? {};
    },

    /** `GET /{media}/replies`: the direct replies, oldest first. */
    listReplies: (
      id: string,
      token: string,
      page: { fields: readonly string[]; limit: number; after?: string },
    ) =>
      graph<GraphPage<ThreadsMediaNode>>('GET', `/${id}/replies`, token, {
        fields: page.fields.join(','),
        reverse: 'false',
        limit: String(page.limit),
        after: page.after,
      }),

    deleteMedia: (id: string, token: string) =>
      graph<{ success?: boolean }>('DELETE', `/${id}`, token),
  };
}

export type ThreadsPublishApi = ReturnType<typeof createThreadsPublishApi>;
