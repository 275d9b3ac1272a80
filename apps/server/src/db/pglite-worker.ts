// The embedded database's own thread. PGlite is PostgreSQL compiled to WebAssembly: in
// the thread that also answered HTTP, its planning, executing and protocol parsing were about 60 %
// of an embedded posts page, and every request waited for the others' queries. Here it runs
// beside that thread, on the other core. pglite-thread.ts is the other end: it sends requests,
// this answers each one by its id.
//
// This file imports no module of the project's own: Node runs it as it is from src/ (stripping
// its types) and scripts/build.mjs bundles it into dist/ for the built server.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { PGlite, type Transaction } from '@electric-sql/pglite';

/** What pglite-thread.ts sends; `tx` 0 is outside any transaction. */
export type PgliteRequest =
  | {
      id: number;
      op: 'query';
      tx: number;
      text: string;
      params: unknown[];
      rowMode?: 'array' | 'object';
      /** Types answered as the text PostgreSQL sends (parsers cannot cross threads). */
      textTypes?: number[];
    }
  | { id: number; op: 'exec'; tx: number; text: string }
  /** One statement by the simple protocol; answered as PostgreSQL's own bytes (`executeRaw`). */
  | { id: number; op: 'raw'; text: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; channel: string }
  | { id: number; op: 'close' };

/** What this thread answers: to a request by its id, a notification, or how the opening went. */
export type PgliteReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: ErrorFields }
  | { op: 'notify'; channel: string; payload: string }
  | { op: 'ready' }
  | { op: 'failed'; error: ErrorFields };

/** An error as fields: a database error's code, detail, constraint… do not survive cloning. */
export type ErrorFields = { message: string } & Record<string, string | number | boolean>;

export interface PgliteThreadOptions {
  /** The data folder, or null for a database in memory. */
  folder: string | null;
  /** The build's template (a gzipped tar) for a new data folder, when there is one. */
  template: string | null;
}

export function errorFields(err: unknown): ErrorFields {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields: ErrorFields = { message: err.message, name: err.name };
  for (const [key, value] of Object.entries(err)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      fields[key] = value;
  }
  return fields;
}

/**
 * PostgreSQL's settings, PGlite's own but for a smaller buffer cache: the default 128 MB were
 * cleared at every start, 0.6 s of it under WebAssembly. An embedded database is a
 * small team's, and what the cache does not hold the operating system's does.
 */
const SETTINGS = {
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
};

/** What the thread is started with (by pglite-spawn.ts). */
export type PgliteWorkerData = { pgliteThread: PgliteThreadOptions };

const port = parentPort;
const options = (workerData as Partial<PgliteWorkerData> | null)?.pgliteThread;
if (port && options) void serve(port, options);

async function serve(port: NonNullable<typeof parentPort>, options: PgliteThreadOptions) {
  let pglite: PGlite;
  try {
    pglite = await open(options);
  } catch (err) {
    port.postMessage({ op: 'failed', error: errorFields(err) } satisfies PgliteReply);
    return;
  }
  const asText = (value: string) => value;
  const textParsers = new Map<string, Record<number, typeof asText>>();
  const parsersFor = (types: number[]) => {
    const key = types.join(',');
    let parsers = textParsers.get(key);
    if (!parsers)
      textParsers.set(key, (parsers = Object.fromEntries(types.map((t) => [t, asText]))));
    return parsers;
  };

  const transactions = new Map<
    number,
    { tx: Transaction; end(commit: boolean): void; done: Promise<void> }
  >();
  let lastTx = 0;
  const ROLLED_BACK = new Error('rolled back by the caller');
  const unlisten = new Map<string, () => Promise<void>>();
  let listening = Promise.resolve();
  /**
   * Listens and unlistens run one after the other, in the order sent: an unlisten sent after a
   * listen finds it done. One that failed does not fail the ones after it.
   */
  const inOrder = (step: () => Promise<void>) => (listening = listening.catch(() => {}).then(step));
  const target = (tx: number) => {
    if (tx === 0) return pglite;
    const open = transactions.get(tx);
    if (!open) throw new Error('The transaction has already ended.');
    return open.tx;
  };

  async function answer(request: PgliteRequest): Promise<unknown> {
    switch (request.op) {
      case 'query': {
        const { text, params, rowMode, textTypes } = request;
        const queryOptions = {
          ...(rowMode ? { rowMode } : {}),
          ...(textTypes?.length ? { parsers: parsersFor(textTypes) } : {}),
        };
        const result = await target(request.tx).query(text, params, queryOptions);
        return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
      }
      case 'exec': {
        const results = await target(request.tx).exec(request.text);
        return results.map((r) => ({
          rows: r.rows,
          fields: r.fields,
          affectedRows: r.affectedRows,
        }));
      }
      case 'raw': {
        // As PGlite's own query runs: after any transaction in progress (its transaction lock),
        // then alone (its query lock, never between another query's steps). Streamed, the answer
        // is not read by PGlite at all (its plain raw call still parses every message); each
        // chunk is copied out of PGlite's buffer, and the whole is handed over.
        const chunks: Uint8Array[] = [];
        await pglite._runExclusiveTransaction(() =>
          pglite.runExclusive(() => {
            // A close may have run first (it takes the same locks).
            if (pglite.closed) throw new Error('PGlite is closed');
            return pglite.execProtocolRawStream(queryMessage(request.text), {
              onRawData: (chunk) => chunks.push(chunk.slice()),
            });
          }),
        );
        if (chunks.length === 1) return chunks[0]!;
        // Not Buffer.concat: a small Buffer lives in Node's shared pool, which cannot be handed over.
        const whole = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
        let at = 0;
        for (const chunk of chunks) {
          whole.set(chunk, at);
          at += chunk.length;
        }
        return whole;
      }
      case 'begin': {
        const tx = ++lastTx;
        let started!: () => void;
        const begun = new Promise<void>((resolve) => (started = resolve));
        const done = pglite.transaction(
          (handle) =>
            new Promise<void>((resolve, reject) => {
              transactions.set(tx, {
                tx: handle,
                end: (commit) => (commit ? resolve() : reject(ROLLED_BACK)),
                done,
              });
              started();
            }),
        );
        // A BEGIN that fails settles `done` without ever starting.
        await Promise.race([begun, done]);
        return tx;
      }
      case 'end': {
        const open = transactions.get(request.tx);
        if (!open) throw new Error('The transaction has already ended.');
        open.end(request.commit);
        try {
          await open.done;
        } catch (err) {
          if (err !== ROLLED_BACK) throw err;
        } finally {
          transactions.delete(request.tx);
        }
        return null;
      }
      case 'listen': {
        const { channel } = request;
        await inOrder(async () => {
          if (unlisten.has(channel)) return;
          const stop = await pglite.listen(channel, (payload) =>
            port.postMessage({ op: 'notify', channel, payload } satisfies PgliteReply),
          );
          unlisten.set(channel, stop);
        });
        return null;
      }
      case 'unlisten': {
        const { channel } = request;
        await inOrder(async () => {
          const stop = unlisten.get(channel);
          unlisten.delete(channel);
          await stop?.();
        });
        return null;
      }
      case 'close':
        if (!pglite.closed) await pglite.close();
        return null;
    }
  }

  port.on('message', (request: PgliteRequest) => {
    const fail = (err: unknown) =>
      port.postMessage({
        id: request.id,
        ok: false,
        error: errorFields(err),
      } satisfies PgliteReply);
    answer(request).then((value) => {
      try {
        port.postMessage(
          { id: request.id, ok: true, value } satisfies PgliteReply,
          // Bytes are handed over, not copied.
          value instanceof Uint8Array ? [value.buffer as ArrayBuffer] : [],
        );
      } catch (err) {
        // An answer that cannot cross fails its request, not the thread.
        fail(err);
      }
    }, fail);
  });
  port.postMessage({ op: 'ready' } satisfies PgliteReply);
}

/** A Query message of PostgreSQL's simple protocol: 'Q', its length, the text, a NUL. */
function queryMessage(text: string): Uint8Array {
  const body = Buffer.from(text, 'utf8');
  const message = Buffer.alloc(body.length + 6);
  message.write('Q', 0, 'latin1');
  message.writeInt32BE(body.length + 5, 1);
  body.copy(message, 5);
  return message;
}

/**
 * PGlite in `folder` (in memory when null). A new folder starts as a copy of the build's template
 * (pglite-template.ts); when that cannot be unpacked the half-written folder is removed and PGlite
 * initialises it as it always did.
 */
async function open({ folder, template }: PgliteThreadOptions): Promise<PGlite> {
  if (!folder) return PGlite.create(SETTINGS);
  if (template && existsSync(template) && !existsSync(join(folder, 'PG_VERSION'))) {
    try {
      unpackTar(gunzipSync(readFileSync(template)), folder);
      return await PGlite.create(folder, SETTINGS);
    } catch {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return PGlite.create(folder, SETTINGS);
}

/**
 * Writes the files of `tar` (as PGlite's `dumpDataDir` makes it: ustar, folders and plain files)
 * into `folder`. PGlite's own `loadDataDir` writes them through its WebAssembly file system, and
 * took twice as long as this.
 */
export function unpackTar(tar: Buffer, folder: string) {
  const root = resolve(folder);
  mkdirSync(root, { recursive: true });
  // PG_VERSION is what makes a folder an existing database (`open`): it is written last, so a
  // start stopped halfway leaves a folder the next start unpacks again.
  const versionFile = join(root, 'PG_VERSION');
  type File = { path: string; data: Buffer; mode: number };
  let last: File | null = null;
  const write = ({ path, data, mode }: File) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data, { mode });
  };
  let at = 0;
  while (at + 512 <= tar.length) {
    const header = tar.subarray(at, at + 512);
    if (header[0] === 0) break; // the zero blocks at the end
    const text = (start: number, length: number) => {
      const raw = header.subarray(start, start + length);
      const end = raw.indexOf(0);
      return raw.toString('utf8', 0, end === -1 ? length : end);
    };
    const octal = (start: number, length: number) =>
      Number.parseInt(text(start, length).trim() || '0', 8);
    const prefix = text(257, 5) === 'ustar' ? text(345, 155) : '';
    const name = prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
    const size = octal(124, 12);
    const mode = octal(100, 8) & 0o777;
    const type = header[156];
    const path = resolve(root, `./${name}`);
    if (path !== root && !path.startsWith(root + sep))
      throw new Error(`${name} is outside the folder`);
    const body = at + 512;
    if (type === 0x35 /* '5' */) {
      mkdirSync(path, { recursive: true, mode });
    } else if (type === 0x30 /* '0' */ || type === 0) {
      const file = { path, data: tar.subarray(body, body + size), mode };
      if (path === versionFile) last = file;
      else write(file);
    } else {
      throw new Error(
        `${name}: an entry of type ${String.fromCharCode(type ?? 0)} is not expected`,
      );
    }
    at = body + Math.ceil(size / 512) * 512;
  }
  if (last) write(last);
}
