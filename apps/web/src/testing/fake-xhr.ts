import { act } from '@testing-library/react';
import { vi } from 'vitest';

type Listener = ((event: ProgressEvent) => void) | null;

function bodySize(body: unknown): number {
  if (body instanceof FormData) {
    let total = 0;
    for (const [, value] of body.entries()) {
      total += typeof value === 'string' ? value.length : value.size;
    }
    return total;
  }
  return typeof body === 'string' ? body.length : 0;
}

const progressEvent = (loaded: number, total: number) =>
  ({ lengthComputable: true, loaded, total }) as ProgressEvent;

/**
 * A stand-in for XMLHttpRequest that answers through the global `fetch` (the fake server's
 * routes), so uploads and plain calls share one route table and one request log. Upload
 * progress is reported in the steps of `FakeXMLHttpRequest.uploadSteps` (fractions of the body)
 * before the request reaches the server; with `uploadSteps = 'manual'` a test drives it with
 * `progress(fraction)` and `finishUpload()`.
 */
export class FakeXMLHttpRequest {
  static instances: FakeXMLHttpRequest[] = [];
  static uploadSteps: number[] | 'manual' = [0.5, 1];

  readyState = 0;
  status = 0;
  responseText = '';
  withCredentials = false;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  readonly upload: { onprogress: Listener } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private aborted = false;
  private release: (() => void) | null = null;

  constructor() {
    FakeXMLHttpRequest.instances.push(this);
  }

  static latest(): FakeXMLHttpRequest {
    const last = FakeXMLHttpRequest.instances.at(-1);
    if (!last) throw new Error('The app has not opened an XMLHttpRequest.');
    return last;
  }

  open(method: string, url: string) {
    this.method = method.toUpperCase();
    this.url = url;
    this.readyState = 1;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  send(body: unknown = null) {
    this.body = body;
    void this.run();
  }

  abort() {
    this.aborted = true;
    this.release?.();
    this.onabort?.();
  }

  /** Reports that this share of the body has been sent (manual mode). */
  progress(fraction: number) {
    const total = Math.max(bodySize(this.body), 1);
    act(() => this.upload.onprogress?.(progressEvent(Math.round(total * fraction), total)));
  }

  /** Lets a manual upload reach the server. */
  finishUpload() {
    this.release?.();
  }

  private async run() {
    const steps = FakeXMLHttpRequest.uploadSteps;
    if (steps === 'manual') {
      await new Promise<void>((resolve) => {
        this.release = resolve;
      });
    } else {
      for (const fraction of steps) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (this.aborted) return;
        const total = Math.max(bodySize(this.body), 1);
        this.upload.onprogress?.(progressEvent(Math.round(total * fraction), total));
      }
    }
    if (this.aborted) return;
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: this.method,
        body: this.body as BodyInit,
        headers: this.headers,
        credentials: this.withCredentials ? 'include' : 'same-origin',
      });
    } catch {
      this.readyState = 4;
      this.onerror?.();
      return;
    }
    if (this.aborted) return;
    this.status = response.status;
    this.responseText = await response.text();
    this.readyState = 4;
    this.onload?.();
  }
}

/** Replaces XMLHttpRequest for one test (vitest's unstubGlobals restores it). */
export function installFakeXhr({
  uploadSteps = [0.5, 1],
}: { uploadSteps?: number[] | 'manual' } = {}) {
  FakeXMLHttpRequest.instances = [];
  FakeXMLHttpRequest.uploadSteps = uploadSteps;
  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  return FakeXMLHttpRequest;
}
