import { describe, expect, it } from 'vitest';
import { isPublished, statusLabel, statusStyle } from './post-status';

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
  });

  it('knows published and posted are not editable', () => {
    expect(isPublished('Posted')).toBe(true);
    expect(isPublished('published')).toBe(true);
    expect(isPublished('failed')).toBe(false);
  });
});
