import { ErrorEnvelopeSchema, PostResponseSchema, type Post } from '@herald/contract';
import { z } from 'zod';
import { API_BASE, apiClient } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';

const REFRESH_PATH = '/auth/refreshToken';
const NETWORK_MESSAGE = 'Could not reach the server. Check your connection and try again.';
// Unknown codes are kept: a newer server must not turn its error into a parse failure.
const LooseErrorEnvelopeSchema = ErrorEnvelopeSchema.extend({ code: z.string() });

export interface UploadOptions {
  /** Share of the request body sent so far, from 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

interface RawAnswer {
  status: number;
  text: string;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function toApiError({ status, text }: RawAnswer): ApiError {
  const envelope = LooseErrorEnvelopeSchema.safeParse(parseJson(text));
  if (envelope.success) {
    const { code, message, details } = envelope.data;
    return new ApiError(status, code, message, details);
  }
  return new ApiError(
    status,
    'HTTP_ERROR',
    `The server answered with an unexpected error (${status}). Please try again.`,
  );
}

/**
 * One multipart POST through XMLHttpRequest: fetch cannot report how much of a request body
 * has been sent, and a post with videos can take minutes to upload.
 */
function send(url: string, body: FormData, { onProgress, signal }: UploadOptions) {
  return new Promise<RawAnswer>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbortSignal = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', onAbortSignal);
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      settle();
      resolve({ status: xhr.status, text: xhr.responseText });
    };
    xhr.onerror = () => {
      settle();
      reject(new ApiError(0, 'NETWORK_ERROR', NETWORK_MESSAGE));
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbortSignal, { once: true });
    xhr.send(body);
  });
}

/**
 * `POST /organizations/{orgId}/post` with the post's fields and files, reporting upload
 * progress. Like every other call (lib/api-client), a 401 refreshes the session once and the
 * upload is replayed once; a second 401 is the answer.
 */
export async function uploadPost(
  orgId: string,
  body: FormData,
  options: UploadOptions = {},
): Promise<Post> {
  const url = `${API_BASE}/organizations/${encodeURIComponent(orgId)}/post`;
  let answer = await send(url, body, options);
  if (answer.status === 401) {
    const unauthorized = toApiError(answer);
    try {
      await apiClient.post(REFRESH_PATH, undefined, { skipAuthRefresh: true });
    } catch {
      throw unauthorized;
    }
    options.onProgress?.(0);
    answer = await send(url, body, options);
  }
  if (answer.status < 200 || answer.status >= 300) throw toApiError(answer);
  const parsed = PostResponseSchema.safeParse(parseJson(answer.text));
  if (!parsed.success) {
    throw new ApiError(
      answer.status,
      'INVALID_RESPONSE',
      'The server sent an answer this app does not understand. Please reload the page.',
      parsed.error.issues,
    );
  }
  return parsed.data.data.post;
}
