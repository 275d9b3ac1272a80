import type { FastifyInstance } from 'fastify';

/** One Server-Sent Event as the browser would hand it over. */
export interface StreamEvent {
  event: string;
  data: string;
}

/** A live notification stream opened over real HTTP, read as it arrives. */
export interface OpenedStream {
  status: number;
  headers: Headers;
  /** The answer's body when it was refused (the error envelope). */
  body: unknown;
  /** Every event received so far, in order. */
  events: StreamEvent[];
  /** Resolves when the server ends the stream (never when the test aborts it). */
  ended: Promise<void>;
  /** Resolves with the first event (from now on, or already received) that `match` accepts. */
  next(match: (e: StreamEvent) => boolean): Promise<StreamEvent>;
  /** Closes the stream from the client's side. */
  abort(): void;
}

/** The base URL of `app`, listening on a free port of 127.0.0.1 (started on first use). */
export async function listeningUrl(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

/** Opens `/api/notifications/stream` of `organizationId` with the cookies `cookie`. */
export async function openStream(
  baseUrl: string,
  cookie: string,
  organizationId: string,
): Promise<OpenedStream> {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/notifications/stream?organizationId=${organizationId}`, {
    headers: { cookie },
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  const waiting = new Set<() => void>();
  const next = (match: (e: StreamEvent) => boolean) =>
    new Promise<StreamEvent>((resolve) => {
      const look = () => {
        const found = events.find(match);
        if (!found) return;
        waiting.delete(look);
        resolve(found);
      };
      waiting.add(look);
      look();
    });
  if (res.status !== 200) {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    return {
      status: res.status,
      headers: res.headers,
      body,
      events,
      ended: Promise.resolve(),
      next,
      abort: () => controller.abort(),
    };
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    let buffer = '';
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        // Aborted by the test: the server did not end it.
        return new Promise<void>(() => {});
      }
      if (chunk.done) return;
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event !== undefined && data !== undefined) events.push({ event, data });
      }
      for (const look of [...waiting]) look();
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    body: null,
    events,
    ended,
    next,
    abort: () => controller.abort(),
  };
}

/** `promise`'s value, or 'timeout' after `ms` (a generous bound, not a measurement). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
