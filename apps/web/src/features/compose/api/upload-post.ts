import { PostResponseSchema, type Post } from '@herald/contract';
import { API_BASE, apiClient } from '@/lib/api-client';
import { ApiError, apiErrorFrom, NETWORK_MESSAGE, parseJson } from '@/lib/api-error';

export interface UploadOptions {
  /** Share of the request body sent so far, from 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

interface RawAnswer {
  status: number;
  text: string;
}

/**
 * One multipart POST through XMLHttpRequest: fetch cannot report how much of a request body
 * has been sent, and a post with videos can take minutes to upload.
 */
function send(
  method: 'POST' | 'PUT',
  url: string,
  body: FormData,
  idempotencyKey: string,
  { onProgress, signal }: UploadOptions,
) {
  return new Promise<RawAnswer>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbortSignal = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', onAbortSignal);
    xhr.open(method, url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Idempotency-Key', idempotencyKey);
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
 * One multipart request with the post's fields and files, reporting upload progress. Like every
 * other call (lib/api-client), a 401 refreshes the session once and the upload is replayed once;
 * a second 401 is the answer.
 */
async function sendPostForm(
  method: 'POST' | 'PUT',
  url: string,
  body: FormData,
  options: UploadOptions,
): Promise<Post> {
  // One key for the upload and its replay: the server acts once.
  const idempotencyKey = crypto.randomUUID();
  let answer = await send(method, url, body, idempotencyKey, options);
  if (answer.status === 401) {
    const unauthorized = apiErrorFrom(answer.status, answer.text);
    try {
      await apiClient.refreshSession();
    } catch {
      throw unauthorized;
    }
    options.onProgress?.(0);
    answer = await send(method, url, body, idempotencyKey, options);
  }
  if (answer.status < 200 || answer.status >= 300) throw apiErrorFrom(answer.status, answer.text);
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

/** `POST /organizations/{orgId}/post`: creates a post. */
export function uploadPost(orgId: string, body: FormData, options: UploadOptions = {}) {
  return sendPostForm(
    'POST',
    `${API_BASE}/organizations/${encodeURIComponent(orgId)}/post`,
    body,
    options,
  );
}

/** `PUT /organizations/{orgId}/post/{postId}`: the post as edited, with its new files. */
export function uploadPostEdit(
  orgId: string,
  postId: string,
  body: FormData,
  options: UploadOptions = {},
) {
  return sendPostForm(
    'PUT',
    `${API_BASE}/organizations/${encodeURIComponent(orgId)}/post/${encodeURIComponent(postId)}`,
    body,
    options,
  );
}
