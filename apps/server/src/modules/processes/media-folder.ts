import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/*
 * Whether two processes see the same local media folder cannot be told from its path: two hosts
 * may mount one shared folder at different paths, or keep separate folders at the same path (a
 * data folder copied to a second machine). The folder says it itself: a file in it holds its
 * identity, and every process running on it keeps a mark in it holding its latest heartbeat.
 */

const FOLDER_ID = '.herald-folder-id';
const MARKS = '.herald-processes';

/** The folder's identity, made on first use (of two processes making it at once, one wins). */
async function readOrMakeId(dir: string): Promise<string> {
  const file = join(dir, FOLDER_ID);
  try {
    await writeFile(file, randomUUID(), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return (await readFile(file, 'utf8')).trim();
}

/** The heartbeat a process last wrote in its mark; null when there is no mark; 0 when blank. */
async function markOf(dir: string, processId: string): Promise<number | null> {
  try {
    const text = (await readFile(join(dir, MARKS, processId), 'utf8')).trim();
    return text ? Date.parse(text) || 0 : 0;
  } catch {
    return null;
  }
}

/** Records `processId`'s latest heartbeat in its mark (at start and at every beat). */
export async function markMediaFolder(dir: string, processId: string, heartbeatAt: Date | null) {
  await mkdir(join(dir, MARKS), { recursive: true });
  await writeFile(join(dir, MARKS, processId), heartbeatAt?.toISOString() ?? '');
}

/**
 * The identity of the local media folder `dir`, for the process `processId` starting on it.
 * `peers`: the live processes of other hosts that use a local media folder. One that names this
 * folder's identity uses this very folder only if its mark here follows its heartbeats; a mark
 * that is missing or stopped (more than two beats behind) is a copy's: this folder then gets an
 * identity of its own, so the copy and the original are told apart from now on.
 */
export async function identifyMediaFolder(
  dir: string,
  processId: string,
  peers: Array<{ id: string; mediaFolderId: string | null; heartbeatAt: Date }>,
  heartbeatSeconds: number,
): Promise<string> {
  await markMediaFolder(dir, processId, null);
  const id = await readOrMakeId(dir);
  for (const peer of peers) {
    if (peer.mediaFolderId !== id) continue;
    const marked = await markOf(dir, peer.id);
    // A blank mark: the peer has just started and not written its first heartbeat yet.
    if (marked === 0) continue;
    if (marked !== null && marked >= peer.heartbeatAt.getTime() - 2 * heartbeatSeconds * 1000)
      continue;
    const own = randomUUID();
    await writeFile(join(dir, FOLDER_ID), own);
    return own;
  }
  return id;
}

/** Removes the mark of a process that stops. */
export async function unmarkMediaFolder(dir: string, processId: string) {
  await rm(join(dir, MARKS, processId), { force: true });
}
