import { AppError } from '../lib/app-error.js';

/**
 * The error classes every adapter maps the network's errors to (docs/networks.md#adapter-contract).
 * `message` is a sentence for the user that keeps the network's own words.
 */
export type PlatformErrorKind =
  'reauth' | 'rate_limited' | 'transient' | 'bad_request' | 'unknown_outcome';

export class PlatformError extends Error {
  constructor(
    readonly kind: PlatformErrorKind,
    message: string,
    readonly details: { status?: number; code?: string | number; retryAfterSeconds?: number } = {},
  ) {
    super(userFacingNetworkText(message));
    this.name = 'PlatformError';
  }
}

/**
 * A visible call whose answer did not arrive (a cut line, a 5xx): the post may exist, so it is an
 * `unknown_outcome` that reconcile settles before any new attempt. Other refusals pass unchanged.
 */
export function asUnconfirmed(network: string, err: unknown): unknown {
  if (
    err instanceof PlatformError &&
    (err.kind === 'transient' || err.details.status === undefined)
  )
    return new PlatformError(
      'unknown_outcome',
      `${network} did not confirm the post (${err.message}). Herald will check before trying again.`,
      err.details,
    );
  return err;
}

/**
 * For a reconcile that read one page of an account's recent posts without finding its attempt:
 * whether that page shows the attempt was not made, because it lists the posts newest first and
 * reaches back past the attempt's start. A page in any other order (a board sorted by hand) or
 * one that stops short says nothing, and the caller must not conclude the post is missing.
 */
export function pageReachesBefore(createdAt: Array<number>, attemptStart: number): boolean {
  if (createdAt.length === 0 || createdAt.some((t) => Number.isNaN(t))) return false;
  const newestFirst = createdAt.every((t, i) => i === 0 || t <= createdAt[i - 1]!);
  return newestFirst && createdAt.at(-1)! < attemptStart;
}

/**
 * A file's content in memory, for networks that take it (or one part of it, `range`) in one
 * request.
 */
export async function mediaBytes<Range>(
  media: { open(range?: Range): Promise<AsyncIterable<unknown>> },
  range?: Range,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await media.open(range))
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * An account whose stored tokens this server cannot read (sealed with a key it does not have, or
 * altered). For the user it is what a refused token is: the account must be reconnected, so it
 * is a `reauth`, and every path that handles one asks for a reconnect; nothing reached the network.
 */
export class UnreadableTokensError extends PlatformError {
  constructor(account: string) {
    super(
      'reauth',
      `Herald cannot read the stored access of ${account}: it was encrypted with a key this server does not have. Reconnect the account in Settings.`,
    );
    this.name = 'UnreadableTokensError';
  }

  /** The answer of any API route that met it: the account's state, not a server fault. */
  toAppError() {
    return new AppError('CONFLICT', this.message);
  }
}

/** The longest network explanation passed on to a person. */
export const MAX_NETWORK_TEXT = 400;

const NOT_A_MESSAGE = [
  // SQL text or a database error that escaped a network's (or an emulator's) server.
  /\b(select\s+[\w*"., ]+\s+from|insert\s+into|update\s+\S+\s+set|delete\s+from)\b/i,
  /\b(violates\s+\S+\s+constraint|relation\s+"[^"]+"|syntax error at or near|duplicate key value)/i,
  // A stack trace: "    at fn (file:line:col)".
  /\n\s*at\s+\S+|\bat\s+[\w.<>]+\s+\([^)]*:\d+:\d+\)/,
];

/**
 * What a person may read of a network's answer: its own sentence, on one line and bounded in
 * length. Anything that is not a message (SQL, a stack trace) is cut off at the sentence that
 * introduced it, with a plain note instead.
 */
export function userFacingNetworkText(text: string): string {
  let clean = text;
  const leak = NOT_A_MESSAGE.map((pattern) => pattern.exec(clean)?.index ?? -1)
    .filter((index) => index >= 0)
    .sort((a, b) => a - b)[0];
  if (leak !== undefined) {
    const lead = clean.slice(0, leak);
    const cut = lead.indexOf(': ');
    clean = `${cut >= 0 ? lead.slice(0, cut) : 'The network failed'}: it answered with an internal error instead of a message.`;
  }
  clean = clean.replace(/\s+/g, ' ').trim();
  return clean.length > MAX_NETWORK_TEXT ? `${clean.slice(0, MAX_NETWORK_TEXT - 1)}…` : clean;
}

/** Seconds from a Retry-After header (seconds or HTTP date), if present. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const n = Number(value);
  if (Number.isFinite(n)) return Math.max(0, n);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.round((date - Date.now()) / 1000));
}

/** A generic mapping from HTTP status, for networks whose error bodies add nothing better. */
export function classifyStatus(status: number): PlatformErrorKind {
  if (status === 401 || status === 403) return 'reauth';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'transient';
  return 'bad_request';
}

/** What a network's error answer says, as its errors.ts reads it. */
export interface DescribedError {
  message?: string;
  kind?: PlatformErrorKind;
  code?: string | number;
  /** A whole sentence for the person, said instead of "{network} said: {message}". */
  sentence?: string;
  /** How long the network asks to wait, when its body or headers say (before Retry-After). */
  retryAfterSeconds?: number;
}

/** A plain JSON object (not an array), as error envelopes are read. */
export const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A non-blank string, trimmed; undefined otherwise. */
export const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
