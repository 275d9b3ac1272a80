import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { PlatformError } from '../errors.js';
import { basicAuth, form, requestJson } from '../oauth.js';
import type { AdapterSettings, PublishMedia } from '../types.js';
import { describePinterestError, type PinterestRequest } from './errors.js';
import { PINTEREST_BOARDS_MAX_PAGES, PINTEREST_BOARDS_PAGE } from './limits.js';

/** Where Pinterest lives (docs/networks.md#sandboxes): production or the emulator, same paths. */
export interface PinterestUrls {
  /** https://www.pinterest.com/oauth/ */
  authorizeUrl: string;
  /** https://api.pinterest.com/v5 (the token endpoint is `{apiBase}/oauth/token`). */
  apiBase: string;
}

export interface PinterestTokenResponse {
  access_token: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  scope?: string;
  token_type?: string;
}

export interface PinterestUserAccount {
  id?: string;
  username?: string;
  account_type?: string;
  profile_image?: string;
  website_url?: string;
  business_name?: string;
  follower_count?: number;
  monthly_views?: number;
}

export interface PinterestBoard {
  id: string;
  name: string;
  description?: string | null;
  privacy?: 'PUBLIC' | 'PROTECTED' | 'SECRET';
  pin_count?: number;
}

export interface PinterestPin {
  id: string;
  board_id?: string;
  created_at?: string;
  title?: string | null;
  description?: string | null;
  link?: string | null;
  alt_text?: string | null;
  media?: { media_type?: string };
}

export interface PinterestMediaUpload {
  media_id: string;
  media_type?: string;
  upload_url: string;
  upload_parameters: Record<string, string>;
}

/** `GET /v5/media/{id}`: `registered`, `processing`, `succeeded` or `failed`. */
export interface PinterestMediaStatus {
  media_id: string;
  media_type?: string;
  status: 'registered' | 'processing' | 'succeeded' | 'failed';
}

/** `GET /v5/pins/{id}/analytics`: per app type (`all`), the range's sums and each day's. */
export interface PinterestPinAnalytics {
  all?: {
    summary_metrics?: Record<string, number>;
    lifetime_metrics?: Record<string, number>;
    daily_metrics?: Array<{ date?: string; metrics?: Record<string, number> }>;
  };
}

const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';

/**
 * A multipart body streamed from the file: the upload URL's parameters first, then the file, as
 * the storage behind `upload_url` requires; never the whole video in memory.
 */
function multipartOf(parameters: Record<string, string>, video: PublishMedia) {
  const boundary = `----herald${randomBytes(12).toString('hex')}`;
  const fields = Object.entries(parameters)
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  const head = Buffer.from(
    `${fields}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${video.fileName.replace(/"/g, '')}"\r\nContent-Type: ${video.mimeType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* parts() {
    yield head;
    for await (const piece of await video.open())
      yield Buffer.isBuffer(piece) ? piece : Buffer.from(piece as unknown as Uint8Array);
    yield tail;
  }
  return {
    body: Readable.toWeb(Readable.from(parts())) as ReadableStream,
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + video.size + tail.length,
  };
}

/** Typed calls to Pinterest's token endpoint and API v5. */
export function createPinterestApi(settings: AdapterSettings<PinterestUrls>) {
  const { urls, http } = settings;

  function call<T>(url: string, init: RequestInit, request: PinterestRequest = 'api') {
    return requestJson<T>(http, 'Pinterest', url, init, describePinterestError(request));
  }

  const api = <T>(token: string, path: string, init: RequestInit = {}) =>
    call<T>(`${urls.apiBase}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
    });

  const post = <T>(token: string, path: string, body: object) =>
    api<T>(token, path, {
      method: 'POST',
      headers: { 'content-type': JSON_TYPE },
      body: JSON.stringify(body),
    });

  /** `POST /v5/oauth/token`: the app's id and secret in Basic auth, the grant in a form. */
  async function token(fields: Record<string, string | undefined>, request: PinterestRequest) {
    const body = await call<PinterestTokenResponse>(
      `${urls.apiBase}/oauth/token`,
      {
        method: 'POST',
        headers: {
          'content-type': FORM,
          authorization: basicAuth(settings.clientId, settings.clientSecret),
        },
        body: form(fields),
      },
      request,
    );
    if (typeof body?.access_token !== 'string')
      throw new PlatformError(
        'bad_request',
        'Pinterest answered the token request without an access token.',
      );
    return body;
  }

  return {
    exchangeCode: (input: { code: string; redirectUri: string }) =>
      token(
        {
          grant_type: 'authorization_code',
          code: input.code,
          redirect_uri: input.redirectUri,
          // Apps made before continuous refresh tokens became the default ask for them.
          continuous_refresh: 'true',
        },
        'code',
      ),

    refresh: (refreshToken: string) =>
      token({ grant_type: 'refresh_token', refresh_token: refreshToken }, 'refresh'),

    userAccount: (accessToken: string) => api<PinterestUserAccount>(accessToken, '/user_account'),

    /** Every board of the account, a page of 250 at a time (`bookmark` cursor), up to a cap. */
    async boards(accessToken: string): Promise<PinterestBoard[]> {
      const out: PinterestBoard[] = [];
      let bookmark: string | null = null;
      for (let page = 0; page < PINTEREST_BOARDS_MAX_PAGES; page++) {
        const query = new URLSearchParams({ page_size: String(PINTEREST_BOARDS_PAGE) });
        if (bookmark) query.set('bookmark', bookmark);
        const body = await api<{ items?: PinterestBoard[]; bookmark?: string | null }>(
          accessToken,
          `/boards?${query.toString()}`,
        );
        out.push(...(body?.items ?? []));
        bookmark = body?.bookmark ?? null;
        if (!bookmark) break;
      }
      return out;
    },

    createBoard: (
      accessToken: string,
      input: { name: string; description?: string; privacy: string },
    ) => post<PinterestBoard>(accessToken, '/boards', input),

    registerVideo: (accessToken: string) =>
      post<PinterestMediaUpload>(accessToken, '/media', { media_type: 'video' }),

    /** The video to the upload URL Pinterest gave, with every parameter it gave. */
    async uploadVideo(upload: PinterestMediaUpload, video: PublishMedia) {
      const multipart = multipartOf(upload.upload_parameters, video);
      let res: Response;
      try {
        res = await http(upload.upload_url, {
          method: 'POST',
          headers: {
            'content-type': multipart.contentType,
            'content-length': String(multipart.length),
          },
          body: multipart.body,
          duplex: 'half',
        } as RequestInit);
      } catch (err) {
        throw new PlatformError('transient', 'The upload of the video to Pinterest was cut off.', {
          code: err instanceof Error ? err.message : undefined,
        });
      }
      const text = await res.text();
      if (!res.ok)
        throw new PlatformError(
          res.status >= 500 ? 'transient' : 'bad_request',
          `Pinterest's upload storage refused the video (HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}).`,
          { status: res.status },
        );
    },

    mediaStatus: (accessToken: string, mediaId: string) =>
      api<PinterestMediaStatus>(accessToken, `/media/${encodeURIComponent(mediaId)}`),

    createPin: (accessToken: string, body: object) =>
      post<PinterestPin>(accessToken, '/pins', body),

    async boardPins(accessToken: string, boardId: string, pageSize: number) {
      const body = await api<{ items?: PinterestPin[]; bookmark?: string | null }>(
        accessToken,
        `/boards/${encodeURIComponent(boardId)}/pins?page_size=${pageSize}`,
      );
      return { pins: body?.items ?? [], more: Boolean(body?.bookmark) };
    },

    pinAnalytics: (
      accessToken: string,
      pinId: string,
      input: { startDate: string; endDate: string; metricTypes: readonly string[] },
    ) => {
      const query = new URLSearchParams({
        start_date: input.startDate,
        end_date: input.endDate,
        metric_types: input.metricTypes.join(','),
        app_types: 'ALL',
      });
      return api<PinterestPinAnalytics>(
        accessToken,
        `/pins/${encodeURIComponent(pinId)}/analytics?${query.toString()}`,
      );
    },
  };
}

export type PinterestApi = ReturnType<typeof createPinterestApi>;
