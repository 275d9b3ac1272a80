import { INBOX_SAVED_REPLY_MAX } from '@herald/contract';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { BookmarkPlus, MessageSquareText, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-error';
import { toastError } from '@/lib/toast';
import { useCreateSavedReply, useDeleteSavedReply, useSavedReplies } from '../api/inbox';

export const MENU_ITEM =
  'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-700 outline-none data-[disabled]:opacity-60 data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900';
export const MENU_CONTENT =
  'z-50 max-h-80 min-w-56 overflow-y-auto rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg';

/** Saved replies: pick one to put it in the reply box; create and delete them in a dialog. */
export function SavedRepliesMenu({
  orgId,
  onPick,
  disabled,
}: {
  orgId: string;
  onPick: (text: string) => void;
  disabled?: boolean;
}) {
  const [managing, setManaging] = useState(false);
  const saved = useSavedReplies(orgId);

  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          disabled={disabled}
          className="inline-flex items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
        >
          <MessageSquareText className="size-4" aria-hidden="true" />
          <span className="max-sm:sr-only">Saved replies</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Content align="start" side="top" sideOffset={6} className={MENU_CONTENT}>
          {saved.isPending && <p className="px-3 py-2 text-sm text-slate-600">Loading…</p>}
          {saved.replies?.length === 0 && (
            <p className="px-3 py-2 text-sm text-slate-600">No saved replies yet.</p>
          )}
          {saved.replies?.map((reply) => (
            <DropdownMenu.Item
              key={reply.id}
              className={MENU_ITEM}
              onSelect={() => onPick(reply.text)}
            >
              <span className="min-w-0">
                <span className="block truncate font-medium">{reply.title}</span>
                <span className="block max-w-64 truncate text-xs text-slate-600">{reply.text}</span>
              </span>
            </DropdownMenu.Item>
          ))}
          {saved.hasNextPage && (
            <DropdownMenu.Item
              className={MENU_ITEM}
              disabled={saved.isFetchingNextPage}
              // Keeps the menu open: the next page appears under the ones shown.
              onSelect={(event) => {
                event.preventDefault();
                void saved.fetchNextPage();
              }}
            >
              {saved.isFetchingNextPage ? 'Loading…' : 'Show more'}
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
          <DropdownMenu.Item className={MENU_ITEM} onSelect={() => setManaging(true)}>
            <BookmarkPlus className="size-4" aria-hidden="true" />
            Manage saved replies
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Root>
      <ManageSavedReplies orgId={orgId} open={managing} onOpenChange={setManaging} />
    </>
  );
}

function ManageSavedReplies({
  orgId,
  open,
  onOpenChange,
}: {
  orgId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [search, setSearch] = useState('');
  const saved = useSavedReplies(orgId, { enabled: open, q: search });
  const create = useCreateSavedReply(orgId);
  const remove = useDeleteSavedReply(orgId);
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) return setError('Give the saved reply a name.');
    if (!text.trim()) return setError('Write the reply text.');
    setError(null);
    create.mutate(
      { title: title.trim(), text: text.trim() },
      {
        onSuccess: () => {
          setTitle('');
          setText('');
        },
        onError: (e) => setError(errorMessage(e, 'The saved reply could not be saved.')),
      },
    );
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Saved replies"
      description="Answers your team sends often. Pick one in the reply box to insert it."
    >
      <label className="sr-only" htmlFor="saved-reply-search">
        Search saved replies
      </label>
      <input
        id="saved-reply-search"
        type="search"
        value={search}
        placeholder="Search saved replies"
        maxLength={200}
        onChange={(e) => setSearch(e.target.value)}
        className="mb-3 w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
      />
      <ul className="flex max-h-80 flex-col gap-2 overflow-y-auto">
        {saved.replies?.map((reply) => (
          <li
            key={reply.id}
            className="flex items-start gap-2 rounded-lg border border-slate-200 p-2 text-sm"
          >
            <span className="min-w-0 flex-1">
              <span className="block font-medium text-slate-900">{reply.title}</span>
              <span className="block break-words whitespace-pre-wrap text-slate-600">
                {reply.text}
              </span>
            </span>
            <button
              type="button"
              aria-label={`Delete the saved reply ${reply.title}`}
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(reply.id, {
                  onError: (e) => toastError(e, 'The saved reply could not be deleted.'),
                })
              }
              className="rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <Trash2 className="size-4" aria-hidden="true" />
            </button>
          </li>
        ))}
        {saved.replies?.length === 0 && (
          <li className="text-sm text-slate-600">{search.trim() ? 'None found.' : 'None yet.'}</li>
        )}
        {saved.hasNextPage && (
          <li>
            <Button
              type="button"
              variant="secondary"
              disabled={saved.isFetchingNextPage}
              onClick={() => void saved.fetchNextPage()}
            >
              {saved.isFetchingNextPage ? 'Loading…' : 'Show more'}
            </Button>
          </li>
        )}
      </ul>
      <form onSubmit={submit} className="mt-4 flex flex-col gap-2" noValidate>
        <label className="text-sm font-medium text-slate-800" htmlFor="saved-reply-title">
          Name
        </label>
        <input
          id="saved-reply-title"
          value={title}
          maxLength={80}
          onChange={(e) => setTitle(e.target.value)}
          className="rounded-lg border border-slate-300 px-3 py-2 text-sm"
        />
        <label className="text-sm font-medium text-slate-800" htmlFor="saved-reply-text">
          Reply text
        </label>
        <textarea
          id="saved-reply-text"
          value={text}
          rows={3}
          maxLength={INBOX_SAVED_REPLY_MAX}
          onChange={(e) => setText(e.target.value)}
          className="rounded-lg border border-slate-300 px-3 py-2 text-sm"
        />
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="flex justify-end">
          <Button type="submit" disabled={create.isPending}>
            Save reply
          </Button>
        </div>
      </form>
    </Modal>
  );
}
