import type { Comment } from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { addReply, editMessage, removeComment } from './comment-tree';

const comment = (id: string, replies: Comment[] = []): Comment => ({
  id,
  message: `text ${id}`,
  likes: 1,
  created_time: '2026-03-02T09:00:00.000Z',
  from: { id: `u_${id}`, name: `Author ${id}`, picture: { data: { url: null } } },
  isOwn: false,
  replies,
});

const ids = (comments: Comment[]): unknown =>
  comments.map((c) => (c.replies.length ? [c.id, ids(c.replies)] : c.id));

describe('comment threads', () => {
  const thread = [comment('a', [comment('a1', [comment('a1x')])]), comment('b')];

  it('adds a reply under the comment it answers, at any depth', () => {
    expect(ids(addReply(thread, 'b', comment('r1')))).toEqual([
      ['a', [['a1', ['a1x']]]],
      ['b', ['r1']],
    ]);
    expect(ids(addReply(thread, 'a1x', comment('r2')))).toEqual([
      ['a', [['a1', [['a1x', ['r2']]]]]],
      'b',
    ]);
    expect(ids(addReply(thread, 'missing', comment('r3')))).toEqual(ids(thread));
  });

  it('changes only the text of an edited comment', () => {
    const edited = editMessage(thread, 'a1', 'new words');
    expect(edited[0]?.replies[0]).toMatchObject({
      id: 'a1',
      message: 'new words',
      likes: 1,
      from: { name: 'Author a1' },
    });
    expect(edited[0]?.replies[0]?.replies).toHaveLength(1);
    expect(edited[1]).toBe(thread[1]);
  });

  it('removes a comment and its replies, at any depth', () => {
    expect(ids(removeComment(thread, 'a1'))).toEqual(['a', 'b']);
    expect(ids(removeComment(thread, 'b'))).toEqual([['a', [['a1', ['a1x']]]]]);
  });
});
