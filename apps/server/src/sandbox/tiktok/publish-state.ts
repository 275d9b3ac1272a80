import { createKeyedLock } from '../kit/keyed-lock.js';
import type { SandboxStore } from '../store.js';

/**
 * What the TikTok emulator remembers about Content Posting (docs/networks.md#tiktok-publishing, #tiktok-sandbox): one
 * publish job per init, an index of each account's jobs (one row per job, so concurrent inits
 * never overwrite each other), and recent init times for the per-minute cap.
 */
export type JobStatus =
  | 'PROCESSING_UPLOAD'
  | 'PROCESSING_DOWNLOAD'
  | 'SEND_TO_USER_INBOX'
  | 'PUBLISH_COMPLETE'
  | 'FAILED';

export interface TikTokJob {
  publishId: string;
  accountId: string;
  username: string;
  mediaType: 'VIDEO' | 'PHOTO';
  source: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  postMode: 'DIRECT_POST' | 'MEDIA_UPLOAD';
  title: string;
  description: string;
  privacyLevel: string;
  /** post_info as received, for tests that check what Herald sent. */
  postInfo?: Record<string, unknown>;
  photoCount: number;
  videoSize: number;
  chunkSize: number;
  totalChunks: number;
  /** Bytes received so far (FILE_UPLOAD), in order. */
  uploadedBytes: number;
  uploadTokenHash: string | null;
  createdAt: number;
  /** When the media was all there (upload complete, or init for pulled media). */
  receivedAt: number | null;
  processingMs: number;
  moderationMs: number;
  /** The fail_reason processing ends with, decided when the media arrived. */
  failReason: string | null;
  /** The public post id, shown once the post is complete and "moderated". */
  postId: string;
}

export interface JobView {
  status: JobStatus;
  failReason: string | null;
  /** When processing ended (ms), once it has. */
  doneAt: number | null;
  /** The post id, once public. */
  postId: string | null;
}

export function viewJob(job: TikTokJob, now: number): JobView {
  const processing: JobView = {
    status: job.source === 'FILE_UPLOAD' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD',
    failReason: null,
    doneAt: null,
    postId: null,
  };
  if (job.receivedAt === null) return processing;
  const doneAt = job.receivedAt + job.processingMs;
  if (now < doneAt) return processing;
  if (job.failReason) return { status: 'FAILED', failReason: job.failReason, doneAt, postId: null };
  if (job.postMode === 'MEDIA_UPLOAD')
    return { status: 'SEND_TO_USER_INBOX', failReason: null, doneAt, postId: null };
  const isPublic = now >= doneAt + job.moderationMs;
  return {
    status: 'PUBLISH_COMPLETE',
    failReason: null,
    doneAt,
    postId: isPublic ? job.postId : null,
  };
}

export class TikTokPublishState {
  /** Serializes read-modify-write steps per key (an account's init times, a job's upload). */
  readonly lock = createKeyedLock();

  constructor(private readonly store: SandboxStore) {}

  getJob = (publishId: string) => this.store.get<TikTokJob>('tt_publish', publishId);
  putJob = (job: TikTokJob) => this.store.put('tt_publish', job.publishId, job);

  async addJob(job: TikTokJob): Promise<void> {
    await this.putJob(job);
    await this.store.put(`tt_jobs:${job.accountId}`, job.publishId, { createdAt: job.createdAt });
  }

  async allJobs(): Promise<TikTokJob[]> {
    return (await this.store.list<TikTokJob>('tt_publish')).map((r) => r.data);
  }

  /** An account's jobs, newest first. */
  async jobsOf(accountId: string): Promise<TikTokJob[]> {
    const rows = await this.store.list<{ createdAt: number }>(`tt_jobs:${accountId}`);
    const ids = rows.sort((a, b) => b.data.createdAt - a.data.createdAt).map((r) => r.id);
    const jobs = await Promise.all(ids.map((id) => this.getJob(id)));
    return jobs.filter((j): j is TikTokJob => j !== null);
  }

  /**
   * Counts an init against the per-minute cap: false (and nothing recorded) when `cap` inits
   * happened in the last minute.
   */
  takeInit(accountId: string, now: number, cap: number): Promise<boolean> {
    return this.lock(`init:${accountId}`, async () => {
      const record = (await this.store.get<{ inits: number[] }>('tt_rate', accountId)) ?? {
        inits: [],
      };
      const recent = record.inits.filter((t) => now - t < 60_000);
      if (recent.length >= cap) return false;
      await this.store.put('tt_rate', accountId, { inits: [...recent, now] });
      return true;
    });
  }
}

/** `https://www.tiktok.com/@{username}/video/{id}` (docs/networks.md#tiktok-publishing permalink, docs/networks.md#permalinks). */
export const shareUrlOf = (job: Pick<TikTokJob, 'username' | 'postId'>) =>
  `https://www.tiktok.com/@${job.username}/video/${job.postId}`;
