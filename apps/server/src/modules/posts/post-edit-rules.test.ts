import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.js';
import { describeLocked, layoutMedia, pinLockedText, type EditTarget } from './post-edit-rules.js';

const target = (
  integrationId: string | null,
  platformId: string,
  platformName: string,
  status: EditTarget['status'] = 'QUEUED',
): EditTarget => ({ integrationId, platformId, platformName, constraints: null, status });

const xOut = target('acct-x', 'net-x', 'X', 'PUBLISHED');
const threads = target('acct-th', 'net-th', 'Threads');
const fb = target('acct-fb', 'net-fb', 'Facebook');

describe('pinLockedText', () => {
  it('keeps the requested text when nothing is out', () => {
    expect(pinLockedText('old', 'new', [], [threads, fb])).toBe('new');
  });

  it('pins what went out as the account’s own text when the shared text changes', () => {
    expect(pinLockedText('old words', 'new words', [xOut], [xOut, threads])).toEqual({
      default: 'new words',
      'acct-x': 'old words',
    });
    // A network's text that reached the account counts as what went out too.
    expect(
      pinLockedText({ default: 'a', 'net-x': 'for X' }, { default: 'b' }, [xOut], [xOut, threads]),
    ).toEqual({ default: 'b', 'acct-x': 'for X' });
  });

  it('refuses a different text named for an account that is out, and accepts the same one', () => {
    expect(() =>
      pinLockedText('old', { default: 'new', 'acct-x': 'other' }, [xOut], [xOut, threads]),
    ).toThrow(/^The text for X \(published\) cannot change/);
    expect(
      pinLockedText('old', { default: 'new', 'acct-x': 'old' }, [xOut], [xOut, threads]),
    ).toEqual({ default: 'new', 'acct-x': 'old' });
  });

  it('pins a disconnected account by its network only while that network is its alone', () => {
    const gone = target(null, 'net-x', 'X', 'PUBLISHED');
    expect(pinLockedText('old', 'new', [gone], [gone, threads])).toEqual({
      default: 'new',
      'net-x': 'old',
    });
    const otherX = target('acct-x2', 'net-x', 'X (Second)');
    expect(() => pinLockedText('old', 'new', [gone], [gone, otherX])).toThrow(AppError);
  });
});

describe('layoutMedia', () => {
  const stored = [
    { id: 'm1', fileName: 'one.jpg', platformIds: null },
    { id: 'm2', fileName: 'two.jpg', platformIds: ['acct-th'] },
  ];

  it('follows the request when nothing is out: kept files in order, then new ones', () => {
    const layout = layoutMedia(
      { keepMediaIds: ['m2'], platformMedia: { 'acct-fb': [0] } },
      stored,
      1,
      [],
      [threads, fb],
    );
    expect(layout.files).toEqual([
      { ref: { kind: 'stored', id: 'm2' }, owners: null },
      { ref: { kind: 'new', index: 0 }, owners: ['acct-fb'] },
    ]);
    expect(layout.removedIds).toEqual(['m1']);
  });

  it('refuses references to files that are not there', () => {
    expect(() => layoutMedia({ keepMediaIds: ['nope'] }, stored, 0, [], [threads])).toThrow(
      /not part of this post/,
    );
    expect(() =>
      layoutMedia({ platformMedia: { 'acct-th': [2] } }, stored, 1, [], [threads]),
    ).toThrow('platformMedia refers to file 3, but only 1 file was uploaded.');
    expect(() =>
      layoutMedia(
        { keepMediaIds: [], platformMedia: { 'acct-th': ['m1'] } },
        stored,
        0,
        [],
        [threads],
      ),
    ).toThrow(/which keepMediaIds does not keep/);
  });

  it('keeps a locked account’s files for it alone and keeps new files away from it', () => {
    const layout = layoutMedia({ keepMediaIds: [] }, stored, 1, [xOut], [xOut, threads]);
    expect(layout.files).toEqual([
      { ref: { kind: 'new', index: 0 }, owners: ['acct-th'] },
      { ref: { kind: 'stored', id: 'm1' }, owners: ['acct-x'] },
    ]);
    // two.jpg went to Threads only, which may drop it.
    expect(layout.removedIds).toEqual(['m2']);
  });

  it('refuses to re-aim a locked account’s own files', () => {
    const own = [{ id: 'm3', fileName: 'x.jpg', platformIds: ['acct-x'] }];
    expect(() =>
      layoutMedia(
        { keepMediaIds: ['m3'], platformMedia: { 'acct-x': [0] } },
        own,
        1,
        [xOut],
        [xOut, threads],
      ),
    ).toThrow(/^The media for X \(published\) cannot change/);
    // Naming exactly the files it has is no change.
    expect(
      layoutMedia(
        { keepMediaIds: ['m3'], platformMedia: { 'acct-x': ['m3'] } },
        own,
        0,
        [xOut],
        [xOut, threads],
      ).files,
    ).toEqual([{ ref: { kind: 'stored', id: 'm3' }, owners: ['acct-x'] }]);
  });
});

describe('describeLocked', () => {
  it('says the state of each account', () => {
    expect(
      describeLocked([
        xOut,
        target('a', 'n', 'Threads', 'PUBLISHING'),
        target('b', 'm', 'LinkedIn', 'UNCERTAIN'),
      ]),
    ).toBe('X (published), Threads (publishing now), LinkedIn (needs a check)');
  });
});
