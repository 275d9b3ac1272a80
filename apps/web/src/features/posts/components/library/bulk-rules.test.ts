import { describe, expect, it } from 'vitest';
import { createPost } from '../../testing/post-fixtures';
import { anyWaiting, bulkReason } from './bulk-rules';

const at = '2030-03-09T14:00:00.000Z';
const scheduled = createPost({ status: 'scheduled', scheduledAt: at });
const draft = createPost({ status: 'draft', scheduledAt: null });
const waiting = createPost({ status: 'pending_approval', scheduledAt: at });
const published = createPost({ status: 'published', scheduledAt: at });
const publishing = createPost({ status: 'publishing', scheduledAt: at });
const failed = createPost({ status: 'failed', scheduledAt: null });

describe('which chosen posts each bulk action takes', () => {
  it('says nothing when every post fits', () => {
    expect(bulkReason('reschedule', [scheduled, waiting])).toBeNull();
    expect(bulkReason('queue', [draft, scheduled, waiting])).toBeNull();
    expect(bulkReason('approve', [waiting])).toBeNull();
    expect(bulkReason('duplicate', [published, publishing, draft])).toBeNull();
    expect(bulkReason('delete', [published, draft])).toBeNull();
  });

  it('names what to unselect, counted by why', () => {
    expect(bulkReason('reschedule', [scheduled, draft, draft, published, failed])).toBe(
      'Only posts with a time (scheduled, waiting for approval or failed) can be rescheduled: unselect 2 drafts, 1 published post and 1 post without a time.',
    );
    expect(bulkReason('queue', [publishing])).toBe(
      'Posts already published or being published cannot be added to the queue: unselect 1 post being published.',
    );
    expect(bulkReason('reject', [waiting, scheduled, scheduled])).toBe(
      'Only posts waiting for approval can be rejected: unselect 2 scheduled posts.',
    );
    expect(bulkReason('draft', [published])).toBe(
      'Posts already published (or being published) cannot go back to draft: unselect 1 published post.',
    );
    expect(bulkReason('delete', [publishing])).toBe(
      'Posts being published right now cannot be deleted: unselect 1 post being published.',
    );
  });

  it('knows when a decision is waiting', () => {
    expect(anyWaiting([scheduled, waiting])).toBe(true);
    expect(anyWaiting([scheduled, draft])).toBe(false);
  });
});
