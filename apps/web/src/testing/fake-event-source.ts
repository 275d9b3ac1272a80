import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * A stand-in for the browser's EventSource (jsdom has none). Every test gets it (see setup.ts);
 * a test drives the stream the app opened: `FakeEventSource.latest().open()`, `.emit(...)`,
 * `.fail()`. Each change runs inside act(), so React has settled when it returns.
 */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];

  readonly url: string;
  readonly withCredentials: boolean;
  readyState = FakeEventSource.CONNECTING;

  constructor(url: string | URL, init?: EventSourceInit) {
    super();
    this.url = String(url);
    this.withCredentials = Boolean(init?.withCredentials);
    FakeEventSource.instances.push(this);
  }

  /** The most recent stream the app still holds open (or is connecting). */
  static latest(): FakeEventSource {
    const live = FakeEventSource.instances.filter((s) => s.readyState !== FakeEventSource.CLOSED);
    const source = live[live.length - 1];
    if (!source) throw new Error('The app has no open EventSource.');
    return source;
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The server accepted the stream. */
  open() {
    act(() => {
      this.readyState = FakeEventSource.OPEN;
      this.dispatchEvent(new Event('open'));
    });
  }

  /** The server sends `event: {type}` with `data` (JSON-encoded unless already a string). */
  emit(type: string, data: unknown) {
    if (this.readyState === FakeEventSource.CLOSED) return;
    act(() => {
      const text = typeof data === 'string' ? data : JSON.stringify(data);
      this.dispatchEvent(new MessageEvent(type, { data: text }));
    });
  }

  /**
   * The connection broke. By default the browser retries by itself (CONNECTING); with
   * `closed` it has given up (the server refused the stream).
   */
  fail({ closed = false }: { closed?: boolean } = {}) {
    act(() => {
      this.readyState = closed ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
      this.dispatchEvent(new Event('error'));
    });
  }
}

export function installFakeEventSource() {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
}
