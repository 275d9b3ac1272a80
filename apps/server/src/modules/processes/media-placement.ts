import type { NetworkSetupFinding } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { liveProcesses, type ProcessRow } from './processes.repository.js';

type Placed = Pick<
  ProcessRow,
  'kind' | 'host' | 'mediaStorage' | 'mediaDir' | 'mediaFolderId' | 'dataDir'
>;

/** "host (folder)" for each distinct pair, in a stable order. */
function placesOf(processes: Placed[]) {
  const places = new Set(processes.map((p) => `${p.host} (${p.mediaDir ?? p.dataDir})`));
  return [...places].sort();
}

/**
 * What the live processes of one database say about where media lives. Every process must read
 * the files any API process stored: with `local` storage, processes that do not share one folder
 * (told by the folder's identity, media-folder.ts) answer 404 for each other's uploads, and a
 * worker cannot publish a post whose files were uploaded elsewhere. A problem then, naming the
 * hosts and folders; otherwise one `ok` line saying what serves the database.
 */
export function mediaPlacementFindings(processes: Placed[]): NetworkSetupFinding[] {
  if (processes.length === 0) return [];
  const local = processes.filter((p) => p.mediaStorage === 'local');
  const folders = new Set(local.map((p) => p.mediaFolderId ?? `${p.host}:${p.mediaDir}`));
  const hosts = new Set(processes.map((p) => p.host));
  const count = `${processes.length} process${processes.length === 1 ? '' : 'es'} on ${hosts.size} host${hosts.size === 1 ? '' : 's'}`;
  if (folders.size > 1) {
    return [
      {
        level: 'problem',
        topic: 'storage',
        message: `Media is stored in local folders that the processes serving this database do not share: ${placesOf(local).join(', ')}. A file uploaded through one process is missing for the others (404, and its posts fail to publish). Set MEDIA_STORAGE=s3 with one bucket for every process, or give them all one shared folder (MEDIA_DIR on a shared mount).`,
      },
    ];
  }
  if (local.length > 0 && local.length < processes.length) {
    return [
      {
        level: 'problem',
        topic: 'storage',
        message: `Some processes store media in a local folder (${placesOf(local).join(', ')}) and others in S3: each reads only its own. Give every process the same MEDIA_STORAGE setting.`,
      },
    ];
  }
  return [
    {
      level: 'ok',
      topic: 'storage',
      message:
        local.length > 0
          ? `${count} serve this database, sharing one local media folder: ${placesOf(local).join(', ')}.`
          : `${count} serve this database, with media in S3.`,
    },
  ];
}

/** The findings of `herald doctor` and Network setup about the processes serving `db`. */
export async function deploymentFindings(db: Db, lapseSeconds: number) {
  return mediaPlacementFindings(await liveProcesses(db, lapseSeconds));
}
