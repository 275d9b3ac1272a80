import type { Db } from '../../db/client.js';
import type { WritePoints } from '../../platforms/types.js';
import { measureWrite, pauseWrites } from './write-points.repository.js';

/**
 * Per-account write points in the database (`account_write_points`, `account_write_pauses`),
 * shared by every process that publishes (docs/networks.md#bluesky-limits). The windows slide
 * (the last hour, the last day), which never counts fewer points than the network's own windows.
 */
export function createWritePoints(db: Db, now: () => Date = () => new Date()): WritePoints {
  return {
    take: (network, account, points, windows) =>
      measureWrite(db, now(), { network, account }, points, windows, true),
    room: (network, account, points, windows) =>
      measureWrite(db, now(), { network, account }, points, windows, false),
    pause: (network, account, until) => pauseWrites(db, { network, account }, until),
  };
}
