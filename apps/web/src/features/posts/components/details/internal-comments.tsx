import { INTERNAL_COMMENT_MAX, type InternalComment, type Post } from '@herald/contract';
import { Lock, Trash2 } from 'lucide-react';
import { useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { RelativeTime } from '@/components/ui/relative-time';
import { LoadingIndicator } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useCan } from '@/lib/permissions';
import {
  useAddInternalComment,
  useDeleteInternalComment,
  useInternalComments,
  useTeammates,
  type Teammate,
} from '@/lib/post-extras';
import { toastError } from '@/lib/toast';

export const COMMENT_FAILED = 'Failed to add the comment.';

/** The "@word" being typed just before the caret, if any. */
function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([\p{L}\p{N}._-]{0,40})$/u.exec(before);
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]!.toLowerCase() };
}

/** The comment's text with each "@Name" of a mention emphasized. */
function CommentBody({ comment }: { comment: InternalComment }) {
  const names = comment.mentions.flatMap((m) => (m.displayName ? [`@${m.displayName}`] : []));
  if (names.length === 0) return <>{comment.body}</>;
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const parts = comment.body.split(new RegExp(`(${escaped.join('|')})`, 'g'));
  return (
    <>
      {parts.map((part, index) =>
        names.includes(part) ? (
          <strong key={index} className="font-semibold text-indigo-700">
            {part}
          </strong>
        ) : (
          part
        ),
      )}
    </>
  );
}

/**
 * docs/product.md#internal-comments: the team's own discussion of the post, never published.
 * Typing "@" offers teammates; the ones mentioned are notified with a link to the post.
 */
export function InternalComments({ orgId, post }: { orgId: string; post: Post }) {
  const headingId = useId();
  const fieldId = useId();
  const listboxId = useId();
  const comments = useInternalComments(orgId, post.id);
  const mayWrite = useCan('POST /organizations/:orgId/posts/:postId/internal-comments');
  const teammates = useTeammates(mayWrite ? orgId : null);
  const add = useAddInternalComment(orgId, post.id);
  const remove = useDeleteInternalComment(orgId, post.id);
  const [text, setText] = useState('');
  const [mentioned, setMentioned] = useState<Teammate[]>([]);
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const field = useRef<HTMLTextAreaElement>(null);
  const caretAfterPick = useRef<number | null>(null);

  const options = useMemo(() => {
    if (!query) return [];
    return (teammates.data ?? [])
      .filter(
        (t) =>
          t.name.toLowerCase().includes(query.query) ||
          t.email.toLowerCase().startsWith(query.query),
      )
      .slice(0, 6);
  }, [query, teammates.data]);
  const open = options.length > 0;

  const track = (value: string, caret: number) => {
    setText(value);
    setQuery(mentionQuery(value, caret));
    setActive(0);
  };

  const pick = (teammate: Teammate) => {
    if (!query) return;
    const caret = field.current?.selectionStart ?? text.length;
    const inserted = `@${teammate.name} `;
    const next = text.slice(0, query.start) + inserted + text.slice(caret);
    setText(next);
    setMentioned((list) =>
      list.some((m) => m.userId === teammate.userId) ? list : [...list, teammate],
    );
    setQuery(null);
    // Placed as the new text is committed (a layout effect), not a frame later: keys typed
    // right after the pick must land after the mention, not before it.
    caretAfterPick.current = query.start + inserted.length;
  };

  useLayoutEffect(() => {
    const at = caretAfterPick.current;
    if (at === null || !field.current) return;
    caretAfterPick.current = null;
    field.current.focus();
    field.current.setSelectionRange(at, at);
  }, [text]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + options.length) % options.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      pick(options[active]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setQuery(null);
    }
  };

  const submit = () => {
    const body = text.trim();
    if (!body) return;
    // Only the people whose "@Name" is still in the text are mentioned.
    const mentionedUserIds = mentioned
      .filter((m) => body.includes(`@${m.name}`))
      .map((m) => m.userId);
    add.mutate(
      { body, mentionedUserIds },
      {
        onSuccess: () => {
          setText('');
          setMentioned([]);
        },
        onError: (error) => toastError(error, COMMENT_FAILED),
      },
    );
  };

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          Team comments
        </h2>
        <p className="flex items-center gap-1 text-xs text-slate-600">
          <Lock className="size-3.5" aria-hidden="true" />
          Only your team sees these.
        </p>
      </div>
      {comments.isPending ? (
        <LoadingIndicator label="Loading team comments" className="py-6" />
      ) : comments.isError ? (
        <p className="mt-3 text-sm text-red-700">
          {errorMessage(comments.error, 'Failed to load team comments.')}
        </p>
      ) : comments.data.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No team comments yet.</p>
      ) : (
        <ul aria-label="Team comments" className="mt-3 space-y-3">
          {comments.data.map((comment) => (
            <li key={comment.id} className="rounded-xl bg-slate-50 p-3">
              <div className="flex items-start justify-between gap-2">
                <p className="min-w-0 text-sm">
                  <span className="font-semibold text-slate-900">
                    {comment.author?.displayName ?? 'A former member'}
                  </span>{' '}
                  <RelativeTime iso={comment.createdAt} className="text-xs text-slate-500" />
                </p>
                {comment.isOwn && (
                  <button
                    type="button"
                    aria-label="Delete your comment"
                    disabled={remove.isPending}
                    onClick={() =>
                      remove.mutate(comment.id, {
                        onError: (error) => toastError(error, 'Failed to delete the comment.'),
                      })
                    }
                    className="rounded p-1 text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </button>
                )}
              </div>
              <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-800">
                <CommentBody comment={comment} />
              </p>
            </li>
          ))}
        </ul>
      )}
      {mayWrite && (
        <form
          className="mt-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800">
            Add a team comment
          </label>
          <div className="relative mt-1">
            <textarea
              id={fieldId}
              ref={field}
              rows={3}
              value={text}
              maxLength={INTERNAL_COMMENT_MAX}
              placeholder="Type @ to mention a teammate."
              role="combobox"
              aria-expanded={open}
              aria-controls={listboxId}
              aria-autocomplete="list"
              aria-activedescendant={open ? `${listboxId}-${active}` : undefined}
              onChange={(event) =>
                track(event.target.value, event.target.selectionStart ?? event.target.value.length)
              }
              onKeyDown={onKeyDown}
              onBlur={() => setTimeout(() => setQuery(null), 150)}
              className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
            />
            <ul
              id={listboxId}
              role="listbox"
              aria-label="Teammates"
              hidden={!open}
              className="absolute inset-x-0 top-full z-20 mt-1 max-h-56 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
            >
              {options.map((teammate, index) => (
                <li
                  key={teammate.userId}
                  id={`${listboxId}-${index}`}
                  role="option"
                  aria-selected={index === active}
                  onMouseDown={(event) => {
                    event.preventDefault();
                    pick(teammate);
                  }}
                  className={`cursor-pointer px-3 py-2 text-sm ${index === active ? 'bg-indigo-50 text-indigo-900' : 'text-slate-800'}`}
                >
                  <span className="font-medium">{teammate.name}</span>{' '}
                  <span className="text-xs break-all text-slate-500">{teammate.email}</span>
                </li>
              ))}
            </ul>
          </div>
          <div className="mt-2 flex justify-end">
            <Button type="submit" disabled={!text.trim() || add.isPending}>
              {add.isPending ? 'Posting…' : 'Post comment'}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
