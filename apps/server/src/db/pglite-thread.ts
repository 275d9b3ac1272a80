import type { Worker } from 'node:worker_threads';
import { spawnPglite, takeEarlyPglite, toError } from './pglite-spawn.js';
import type {
  ErrorFields,
  PgliteReply,
  PgliteRequest,
  PgliteThreadOptions,
} from './pglite-worker.js';

/** A query's answer, as PGlite gives it. */
export interface PgliteResults<T = Record<string, unknown>> {
  rows: T[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

export interface PgliteQueryOptions {
  rowMode?: 'array' | 'object';
  /**
   * Per type, how a value is read. Only reading as text can cross to the database's thread, so
   * every parser here must answer its text as it is (drizzle's and Herald's all do).
   */
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

/** What runs inside a transaction: the same calls, on the transaction's session. */
export interface PgliteSession {
  query<T = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    options?: PgliteQueryOptions,
  ): Promise<PgliteResults<T>>;
  exec(text: string): Promise<PgliteResults[]>;
}

/** json and jsonb. */
const JSON_TYPES = [114, 3802];

/** Parses, in place, the values of `result`'s fields of `types` (text as the thread sent it). */
function parseJsonFields(result: PgliteResults<unknown>, types: number[], arrays: boolean) {
  const { fields, rows } = result;
  if (!fields.some((field) => types.includes(field.dataTypeID)) || rows.length === 0) return;
  const parse = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
  if (arrays) {
    const at = fields.flatMap((field, i) => (types.includes(field.dataTypeID) ? [i] : []));
    for (const row of rows as unknown[][]) for (const i of at) row[i] = parse(row[i]);
    return;
  }
  // An object row holds the last of the fields that share a name.
  const last = new Map(fields.map((field) => [field.name, field.dataTypeID]));
  const names = [...last].flatMap(([name, type]) => (types.includes(type) ? [name] : []));
  for (const row of rows as Record<string, unknown>[])
    for (const name of names) row[name] = parse(row[name]);
}

/** Types as their text: text, varchar, bpchar, name, uuid, and timestamps (as the caller asks). */
const TEXT_TYPES = new Set([25, 1043, 1042, 19, 2950, 1114, 1184]);

/**
 * A value of a type `executeRaw` reads, from its text, as PGlite reads it (timestamps excepted);
 * undefined for a type it does not read (arrays, bytes, dates, numeric…: PGlite's parsers differ).
 */
function readValue(type: number, text: string): unknown {
  switch (type) {
    case 16: // bool
      return text === 't';
    case 21: // int2
    case 23: // int4
    case 26: // oid
    case 700: // float4
    case 701: // float8
      return Number(text);
    case 20: {
      // int8: a number while it is exact, else a bigint
      const n = Number(text);
      return Number.isSafeInteger(n) ? n : BigInt(text);
    }
    case 114: // json
    case 3802: // jsonb
      return JSON.parse(text);
    default:
      return TEXT_TYPES.has(type) ? text : undefined;
  }
}
const READ_TYPES = new Set([16, 20, 21, 23, 26, 700, 701, 114, 3802, ...TEXT_TYPES]);

/** PostgreSQL's error fields by their protocol codes, named as PGlite names them. */
const ERROR_FIELDS: Record<string, string> = {
  S: 'severity',
  C: 'code',
  M: 'message',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

/**
 * Reads PostgreSQL's answer to a simple-protocol query (the bytes `executeRaw` gets): the last
 * result's fields and rows as arrays, each value read by `readValue`. Notifications in it go to
 * `notify` once it is read (a listener that throws fails nothing else); an error answer, or a
 * field of a type it does not read, throws (an error with PostgreSQL's fields: code, detail…).
 */
export function readRawAnswer(
  bytes: Uint8Array,
  notify: (channel: string, payload: string) => void,
): PgliteResults<unknown[]> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fields: PgliteResults['fields'] = [];
  let rows: unknown[][] = [];
  let failure: Error | null = null;
  let skipping = false;
  const notifications: Array<[string, string]> = [];
  const malformed = () => new Error('The embedded database sent an answer that could not be read.');
  try {
    let at = 0;
    while (at + 5 <= buf.length) {
      const kind = buf[at];
      const end = at + 1 + buf.readInt32BE(at + 1);
      if (end < at + 5 || end > buf.length) throw malformed();
      let p = at + 5;
      const cstring = () => {
        const zero = buf.indexOf(0, p);
        if (zero < 0 || zero >= end) throw malformed();
        const text = buf.toString('utf8', p, zero);
        p = zero + 1;
        return text;
      };
      if (kind === 0x54 /* T: the fields of a result */) {
        const n = buf.readUInt16BE(p);
        p += 2;
        fields = [];
        rows = [];
        skipping = false;
        for (let i = 0; i < n; i++) {
          const name = cstring();
          const dataTypeID = buf.readInt32BE(p + 6);
          p += 18;
          if (!READ_TYPES.has(dataTypeID)) {
            failure ??= new Error(
              `executeRaw does not read ${name} (type ${dataTypeID}); use query.`,
            );
            skipping = true;
          }
          fields.push({ name, dataTypeID });
        }
      } else if (kind === 0x44 /* D: a row */ && !skipping) {
        const n = buf.readUInt16BE(p);
        p += 2;
        const row: unknown[] = new Array(n);
        for (let i = 0; i < n; i++) {
          const length = buf.readInt32BE(p);
          p += 4;
          if (length < 0) row[i] = null;
          else {
            if (p + length > end) throw malformed();
            row[i] = readValue(fields[i]!.dataTypeID, buf.toString('utf8', p, p + length));
            p += length;
          }
        }
        rows.push(row);
      } else if (kind === 0x45 /* E: an error */) {
        const found: ErrorFields = { message: 'The database refused the statement.' };
        while (p < end && buf[p] !== 0) {
          const code = String.fromCharCode(buf[p]!);
          p += 1;
          const value = cstring();
          const name = ERROR_FIELDS[code];
          if (name) found[name] = value;
        }
        failure = toError(found);
      } else if (kind === 0x41 /* A: a notification, which PGlite never saw */) {
        p += 4; // the notifying process
        const channel = cstring();
        notifications.push([channel, cstring()]);
      }
      at = end;
    }
  } finally {
    for (const [channel, payload] of notifications) {
      queueMicrotask(() => {
        try {
          notify(channel, payload);
        } catch {
          // A listener's failure is its own.
        }
      });
    }
  }
  if (failure) throw failure;
  return { rows, fields };
}

type Request = PgliteRequest extends infer R
  ? R extends { id: number }
    ? Omit<R, 'id'>
    : never
  : never;

/**
 * The embedded PGlite database, run in a thread of its own (pglite-worker.ts) and used through the
 * calls PGlite itself offers (query, exec, transaction, listen, close): drizzle's PGlite driver,
 * pg-boss's `fromPglite` and the notification bus take it as they took PGlite.
 *
 * The thread keeps the process alive only while a request is waiting for it, as the database did
 * when it lived in this thread.
 */
export class PgliteThread implements PgliteSession {
  private readonly pending = new Map<
    number,
    { resolve(value: unknown): void; reject(err: Error): void }
  >();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private lastId = 0;
  private stopped: Error | null = null;

  private closing: Promise<void> | null = null;
  private lostThread!: (reason: Error) => void;
  /**
   * Settles if the thread ends other than by `close()` (WebAssembly aborted, out of memory): from
   * then on every call fails as on a lost connection, so the server should stop and be restarted.
   */
  readonly lost = new Promise<Error>((resolve) => (this.lostThread = resolve));

  private constructor(
    private readonly worker: Worker,
    ended: Promise<Error>,
  ) {
    worker.on('message', (reply: PgliteReply) => this.receive(reply));
    void ended.then((reason) => {
      if (!this.closing) this.lostThread(reason);
      this.stop(reason);
    });
    worker.unref();
  }

  /**
   * Opens the database in `options.folder` (in memory when null) in a new thread, or takes over
   * the thread the built entry started for that folder (pglite-spawn.ts).
   */
  static async open(options: PgliteThreadOptions): Promise<PgliteThread> {
    const { worker, opened, ended } = takeEarlyPglite(options.folder) ?? spawnPglite(options);
    try {
      await opened;
    } catch (err) {
      await worker.terminate();
      throw err;
    }
    return new PgliteThread(worker, ended);
  }

  /** Requests sent to the thread and not answered yet (the one it runs and those queued). */
  get inFlight() {
    return this.pending.size;
  }

  /** True once closed, or once the thread has stopped. */
  get closed() {
    return this.stopped !== null;
  }

  query<T = Record<string, unknown>>(
    text: string,
    params: unknown[] = [],
    options?: PgliteQueryOptions,
  ): Promise<PgliteResults<T>> {
    return this.queryIn(0, text, params, options) as Promise<PgliteResults<T>>;
  }

  exec(text: string): Promise<PgliteResults[]> {
    return this.send({ op: 'exec', tx: 0, text }) as Promise<PgliteResults[]>;
  }

  /**
   * Runs one statement (outside any transaction, by the simple protocol) and reads PostgreSQL's
   * answer in this thread: rows as arrays; booleans, numbers and JSON read as PGlite reads them,
   * text, uuids and timestamps as their text; any other type is refused (PGlite reads it
   * differently: arrays, bytes, dates…). For the hot
   * reads (`queryRowArrays`): PGlite's reading of the answer, a copied buffer and a decoder call
   * per value, then copying the rows to this thread, was over half of the embedded database's
   * thread under the posts page, the embedded server's busiest.
   */
  async executeRaw(text: string): Promise<PgliteResults<unknown[]>> {
    const bytes = (await this.send({ op: 'raw', text })) as Uint8Array;
    try {
      return readRawAnswer(bytes, (channel, payload) => this.notify(channel, payload));
    } catch (err) {
      // As PGlite's errors do, it says which statement failed (for the logs).
      if (err instanceof Error) Object.assign(err, { query: text });
      throw err;
    }
  }

  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. As in
   * PGlite, queries from outside wait until it ends.
   */
  async transaction<T>(fn: (tx: PgliteSession) => Promise<T>): Promise<T> {
    const tx = (await this.send({ op: 'begin' })) as number;
    const session: PgliteSession = {
      query: (text, params = [], options) =>
        this.queryIn(tx, text, params, options) as Promise<PgliteResults<never>>,
      exec: (text) => this.send({ op: 'exec', tx, text }) as Promise<PgliteResults[]>,
    };
    let value: T;
    try {
      value = await fn(session);
    } catch (err) {
      await this.send({ op: 'end', tx, commit: false }).catch(() => {});
      throw err;
    }
    await this.send({ op: 'end', tx, commit: true });
    return value;
  }

  /** Calls `callback` with each notification on `channel`; answers the way to stop. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let callbacks = this.listeners.get(channel);
    if (!callbacks) this.listeners.set(channel, (callbacks = new Set()));
    callbacks.add(callback);
    const first = callbacks.size === 1;
    if (first) {
      try {
        await this.send({ op: 'listen', channel });
      } catch (err) {
        // Not listening after all: the next listener on the channel asks again.
        callbacks.delete(callback);
        if (callbacks.size === 0) this.listeners.delete(channel);
        throw err;
      }
    }
    return async () => {
      const current = this.listeners.get(channel);
      if (!current?.delete(callback) || current.size > 0) return;
      this.listeners.delete(channel);
      if (!this.closed) await this.send({ op: 'unlisten', channel });
    };
  }

  /** Closes the database (after what is waiting for it) and ends its thread; once, however often called. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        if (!this.closed) await this.send({ op: 'close' });
      } finally {
        this.stop(new Error('PGlite is closed'));
        await this.worker.terminate();
      }
    })();
    return this.closing;
  }

  private async queryIn(tx: number, text: string, params: unknown[], options?: PgliteQueryOptions) {
    const request: Request = { op: 'query', tx, text, params };
    if (options?.rowMode) request.rowMode = options.rowMode;
    const asText = options?.parsers ? Object.keys(options.parsers).map(Number) : [];
    // JSON crosses as its text and is parsed here, as PGlite would have parsed it there: copying
    // a string to this thread costs far less than copying the objects parsed from it, and the
    // database's thread is the embedded server's busiest.
    const parsedHere = JSON_TYPES.filter((type) => !asText.includes(type));
    request.textTypes = [...asText, ...parsedHere];
    const result = (await this.send(request)) as PgliteResults<unknown>;
    if (parsedHere.length > 0) parseJsonFields(result, parsedHere, options?.rowMode === 'array');
    return result;
  }

  private send(request: Request): Promise<unknown> {
    if (this.stopped) return Promise.reject(new Error(`PGlite is closed: ${this.stopped.message}`));
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      // A value that cannot be copied to the thread (a function, a class instance…) throws here.
      this.worker.postMessage({ ...request, id });
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
    });
  }

  private receive(reply: PgliteReply) {
    if ('id' in reply) {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(toError(reply.error));
    } else if (reply.op === 'notify') {
      this.notify(reply.channel, reply.payload);
    }
  }

  private notify(channel: string, payload: string) {
    for (const callback of this.listeners.get(channel) ?? []) callback(payload);
  }

  /** Fails whatever waits: the thread is gone (or closing), and answers no more. */
  private stop(reason: Error) {
    if (this.stopped) return;
    this.stopped = reason;
    for (const waiting of this.pending.values())
      waiting.reject(new Error(`PGlite is closed: ${reason.message}`));
    this.pending.clear();
    this.worker.unref();
  }
}
