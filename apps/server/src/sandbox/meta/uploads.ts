import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { createKeyedLock } from '../kit/keyed-lock.js';
import type { SandboxStore } from '../store.js';
import { graphErrors } from './errors.js';
import type { PublishDeps } from './helpers.js';
import type { GraphRequest, GraphRouter, ReceivedBytes } from './router.js';

/**
 * The Resumable Upload API (https://developers.facebook.com/docs/graph-api/guides/upload):
 * `POST /{app-id}/uploads` starts a session for one file, `POST /upload:{session}` takes its
 * bytes from the `file_offset` header on and answers the file handle `h` once it has them all,
 * `GET /upload:{session}` says how far an interrupted upload got. Facebook's `/{page-id}/videos`
 * takes the handle as `fbuploader_video_file_chunk`.
 */

/** The file types the guide lists as valid `file_type` values. */
export const UPLOAD_FILE_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/jpg',
  'image/png',
  'video/mp4',
];

/** The first bytes of an upload the emulator keeps (an MP4 names its `ftyp` box there). */
const HEAD_BYTES = 16;

interface UploadSession {
  /** `upload:…`, without the `?sig=` Graph appends to the id it hands out. */
  id: string;
  sig: string;
  appId: string;
  /** The person whose token started it: only their tokens may continue it. */
  userId: string;
  fileName: string;
  fileLength: number;
  fileType: string;
  /** Bytes received so far: where the next upload request must start. */
  offset: number;
  head: string;
  handle: string | null;
  createdAt: number;
}

/** What a file handle stands for, as `/videos` reads it. */
export interface UploadedFile {
  handle: string;
  sessionId: string;
  userId: string;
  fileName: string;
  fileType: string;
  fileLength: number;
  /** Base64 of the file's first bytes. */
  head: string;
}

/** The id Graph hands out: the session and its signature, as one path segment and query. */
const handedOutId = (session: UploadSession) => `${session.id}?sig=${session.sig}`;

/**
 * Fastify parser for `application/octet-stream`: counts the body as it streams past and keeps
 * only its first bytes, so a large video is never held in memory.
 */
export function receiveUploadBytes(
  _request: FastifyRequest,
  payload: NodeJS.ReadableStream,
  done: (err: Error | null, body?: ReceivedBytes) => void,
) {
  let bytes = 0;
  const head: Buffer[] = [];
  payload.on('data', (piece: Buffer) => {
    if (bytes < HEAD_BYTES) head.push(piece.subarray(0, HEAD_BYTES - bytes));
    bytes += piece.length;
  });
  payload.on('end', () => done(null, { bytes, head: Buffer.concat(head) }));
  payload.on('error', (err: Error) => done(err));
}

/** The file a handle names, once its upload is complete; null for an unknown handle. */
export const readUploadedFile = (store: SandboxStore, handle: string) =>
  store.get<UploadedFile>('upload_handle', handle);

export function addResumableUploads(router: GraphRouter, deps: PublishDeps) {
  const { ctx, kit, state } = deps;
  const { store } = ctx;
  const lock = createKeyedLock();

  async function start(req: GraphRequest, appId: string) {
    const auth = await state.authenticate(req.token);
    // Sessions belong to an app: only this emulator's own app id has an uploads edge here.
    if (appId !== ctx.clientId) throw graphErrors.notFound(appId, 'post');
    const p = req.params;
    for (const name of ['file_name', 'file_length', 'file_type'])
      if (!p[name]) throw graphErrors.missingParam(name);
    if (!/^\d+$/.test(p.file_length!) || Number(p.file_length) <= 0)
      throw graphErrors.invalidParam('(#100) Param file_length must be a positive integer');
    if (!UPLOAD_FILE_TYPES.includes(p.file_type!))
      throw graphErrors.invalidParam(
        `(#100) Param file_type must be one of {${UPLOAD_FILE_TYPES.join(', ')}}`,
      );
    const session: UploadSession = {
      id: `upload:${Buffer.from(`1:attachment:${randomUUID()}`).toString('base64url')}`,
      sig: randomBytes(12).toString('base64url'),
      appId,
      userId: auth.user.id,
      fileName: p.file_name!,
      fileLength: Number(p.file_length),
      fileType: p.file_type!,
      offset: 0,
      head: '',
      handle: null,
      createdAt: await kit.now(),
    };
    await store.put('upload_session', session.id, session);
    return { json: { id: handedOutId(session) } };
  }

  /**
   * The session a request names, for the person whose token it carries. The token must come in
   * the Authorization header ("You must include the access token in the header or the call will
   * fail"); a session that is unknown, signed otherwise or someone else's does not exist.
   */
  async function sessionOf(req: GraphRequest, rest: string, method: 'get' | 'post') {
    if (!req.tokenInHeader) throw graphErrors.noToken();
    const auth = await state.authenticate(req.token);
    const id = `upload:${rest}`;
    const session = await store.get<UploadSession>('upload_session', id);
    if (!session || session.sig !== req.params.sig || session.userId !== auth.user.id)
      throw graphErrors.notFound(id, method);
    return { auth, session };
  }

  async function progress(req: GraphRequest, rest: string) {
    const { session } = await sessionOf(req, rest, 'get');
    return { json: { id: handedOutId(session), file_offset: session.offset } };
  }

  async function receive(req: GraphRequest, rest: string) {
    const { auth, session } = await sessionOf(req, rest, 'post');
    const header = req.headers.file_offset;
    if (header === undefined) throw graphErrors.missingParam('file_offset');
    const offset = /^\d+$/.test(header) ? Number(header) : NaN;
    if (offset !== session.offset)
      throw graphErrors.wrongOffset(session.offset, session.fileLength);
    if (session.handle) return { json: { h: session.handle } };
    const received = req.upload ?? { bytes: 0, head: Buffer.alloc(0) };
    if (offset + received.bytes > session.fileLength)
      throw graphErrors.invalidParam(
        `(#100) The upload has more bytes than the file_length (${session.fileLength}) its session was started with.`,
      );
    const head =
      offset === 0 && received.bytes > 0 ? received.head.toString('base64') : session.head;
    const cut = await auth.scenario.takeValue('upload_interrupt_bytes');
    if (cut !== null) {
      // The connection breaks part-way: what arrived before it is kept, the caller hears nothing.
      const kept = Math.min(Math.max(cut, 0), received.bytes);
      await store.put('upload_session', session.id, { ...session, offset: offset + kept, head });
      return { drop: true as const };
    }
    const updated: UploadSession = { ...session, offset: offset + received.bytes, head };
    if (updated.offset < updated.fileLength) {
      // Not the whole file yet: no handle, only how far it got.
      await store.put('upload_session', session.id, updated);
      return { json: { id: handedOutId(updated), file_offset: updated.offset } };
    }
    const expires = Math.floor((await kit.now()) / 1000) + 24 * 3600;
    const handle = [
      '2',
      Buffer.from(session.fileName).toString('base64'),
      session.fileType,
      randomBytes(18).toString('base64url'),
      'e',
      String(expires),
      randomBytes(12).toString('base64url'),
    ].join(':');
    const file: UploadedFile = {
      handle,
      sessionId: session.id,
      userId: session.userId,
      fileName: session.fileName,
      fileType: session.fileType,
      fileLength: session.fileLength,
      head,
    };
    await store.put('upload_handle', handle, file);
    await store.put('upload_session', session.id, { ...updated, handle });
    return { json: { h: handle } };
  }

  router.add('POST', ':id/uploads', (req, path) => start(req, path.id!));
  router.add('GET', 'upload::session', (req, path) => progress(req, path.session!));
  router.add('POST', 'upload::session', (req, path) =>
    lock(`upload:${path.session!}`, () => receive(req, path.session!)),
  );
}
