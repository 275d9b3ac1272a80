import { describe, expect, it } from 'vitest';
import {
  isPublished,
  nextPublication,
  statusLabel,
  statusStyle,
  uploadedAheadTo,
} from './post-status';

describe('post status styles', () => {
  it('matches case-insensitively, treats posted as published, and falls back to draft', () => {
    expect(statusStyle('PUBLISHED')).toEqual(statusStyle('posted'));
    expect(statusStyle('Failed').badge).toContain('red');
    expect(statusStyle('scheduled').badge).toContain('blue');
    expect(statusStyle('WAITING_FOR_APPROVAL').badge).toContain('yellow');
    expect(statusStyle('on-hold').badge).toContain('orange');
    expect(statusStyle('something else')).toEqual(statusStyle('draft'));
    expect(statusStyle(null)).toEqual(statusStyle('draft'));
  });

  it('labels statuses for reading', () => {
    expect(statusLabel('waiting_for_approval')).toBe('Waiting for approval');
    expect(statusLabel('PUBLISHED')).toBe('Published');
    expect(statusLabel('')).toBe('Draft');
    expect(statusLabel('partially_published')).toBe('Partially published');
    expect(statusStyle('partially_published')).not.toEqual(statusStyle('draft'));
  });

  it('finds the next time a queued network is due, ignoring what is out or overdue', () => {
    const target = (status: 'QUEUED' | 'PUBLISHED', dueAt: string | null) =>
      ({ status, dueAt }) as never;
    const now = Date.parse('2026-03-10T12:00:00Z');
    const post = {
      platformPosts: [
        target('PUBLISHED', null),
        target('QUEUED', '2026-03-12T09:00:00Z'),
        target('QUEUED', '2026-03-11T09:00:00Z'),
        target('QUEUED', '2026-03-10T11:00:00Z'),
      ],
    };
    expect(nextPublication(post, now)).toBe('2026-03-11T09:00:00Z');
    expect(nextPublication({ platformPosts: [target('PUBLISHED', null)] }, now)).toBeNull();
    // A video uploaded ahead waits for its network's time as a queued target does.
    const uploaded = { status: 'UPLOADED', dueAt: '2026-03-10T15:00:00Z' } as never;
    expect(nextPublication({ platformPosts: [...post.platformPosts, uploaded] }, now)).toBe(
      '2026-03-10T15:00:00Z',
    );
  });

  it('names the networks that hold the post uploaded ahead, once each', () => {
    const of = (status: string, platformName: string) => ({ status, platformName }) as never;
    expect(
      uploadedAheadTo({
        platformPosts: [of('UPLOADED', 'YouTube'), of('UPLOADED', 'YouTube'), of('QUEUED', 'X')],
      }),
    ).toEqual(['YouTube']);
    expect(uploadedAheadTo({ platformPosts: [of('QUEUED', 'YouTube')] })).toEqual([]);
  });

  it('knows published and posted are not editable', () => {
    expect(isPublished('Posted')).toBe(true);
    expect(isPublished('published')).toBe(true);
    expect(isPublished('failed')).toBe(false);
    expect(isPublished('partially_published')).toBe(false);
  });
});
