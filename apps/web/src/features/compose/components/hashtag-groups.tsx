import { Hash, Pencil, X } from 'lucide-react';
import { useState } from 'react';
import type { HashtagGroup } from '@herald/contract';
import { errorMessage } from '@/lib/api-error';
import {
  useCreateHashtagGroup,
  useDeleteHashtagGroup,
  useHashtagGroups,
  useUpdateHashtagGroup,
} from '../api/use-hashtag-groups';
import { TextToolPopover } from './text-tool-popover';

const input =
  'block w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200';

/**
 * docs/product.md#hashtag-groups: the organization's saved hashtag groups beside a text; a group
 * inserts all its hashtags at the cursor. Groups are saved, edited and deleted from here too.
 */
export function HashtagGroupsPicker({
  orgId,
  target,
  onPick,
  disabled,
}: {
  orgId: string;
  /** As EmojiPicker's `target`. */
  target?: string;
  onPick: (text: string) => void;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const groups = useHashtagGroups(open ? orgId : null);
  const create = useCreateHashtagGroup(orgId);
  const update = useUpdateHashtagGroup(orgId);
  const remove = useDeleteHashtagGroup(orgId);
  const [name, setName] = useState('');
  const [tags, setTags] = useState('');
  /** The group whose name and hashtags the form holds; null while it makes a new one. */
  const [editing, setEditing] = useState<HashtagGroup | null>(null);
  const saving = editing ? update : create;

  const reset = () => {
    setEditing(null);
    setName('');
    setTags('');
  };
  const edit = (group: HashtagGroup) => {
    setEditing(group);
    setName(group.name);
    setTags(group.hashtags.join(' '));
  };
  const save = (event: { preventDefault(): void; stopPropagation(): void }) => {
    event.preventDefault();
    // The composer's form must not be submitted by this one.
    event.stopPropagation();
    const group = { name, hashtags: tags.split(/[\s,]+/).filter(Boolean) };
    if (editing) update.mutate({ id: editing.id, ...group }, { onSuccess: reset });
    else create.mutate(group, { onSuccess: reset });
  };

  return (
    <TextToolPopover
      label={target ? `Add hashtag group for ${target}` : 'Add hashtag group'}
      icon={Hash}
      panelLabel="Hashtag groups"
      panelWidth="w-80"
      open={open}
      onOpenChange={setOpen}
      disabled={disabled}
    >
      {groups.isPending ? (
        <p className="text-sm text-slate-600">Loading hashtag groups…</p>
      ) : groups.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(groups.error, 'The hashtag groups could not be loaded.')}
        </p>
      ) : groups.data.length === 0 ? (
        <p className="text-sm text-slate-600">No hashtag groups yet: save one below.</p>
      ) : (
        <ul className="flex max-h-56 flex-col gap-1 overflow-y-auto" aria-label="Saved groups">
          {groups.data.map((group) => (
            <li key={group.id} className="flex items-start gap-1">
              <button
                type="button"
                aria-label={`Insert ${group.name}`}
                onClick={() => onPick(` ${group.hashtags.join(' ')}`)}
                className="flex-1 rounded-md px-2 py-1 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                <span className="block text-sm font-medium text-slate-900">{group.name}</span>
                <span className="block truncate text-xs text-slate-600">
                  {group.hashtags.join(' ')}
                </span>
              </button>
              <button
                type="button"
                aria-label={`Edit ${group.name}`}
                aria-pressed={editing?.id === group.id}
                onClick={() => edit(group)}
                className="mt-1 inline-flex size-7 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-pressed:bg-indigo-50 aria-pressed:text-indigo-700"
              >
                <Pencil className="size-4" aria-hidden="true" />
              </button>
              <button
                type="button"
                aria-label={`Delete ${group.name}`}
                disabled={remove.isPending}
                onClick={() =>
                  remove.mutate(group.id, {
                    onSuccess: () => {
                      if (editing?.id === group.id) reset();
                    },
                  })
                }
                className="mt-1 inline-flex size-7 items-center justify-center rounded-md text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-3 border-t border-slate-200 pt-3">
        <p className="text-xs font-medium text-slate-700">
          {editing ? `Edit ${editing.name}` : 'New group'}
        </p>
        <div className="mt-1 flex flex-col gap-2">
          <input
            aria-label="Group name"
            placeholder="Name, e.g. Spring launch"
            value={name}
            maxLength={60}
            onChange={(event) => setName(event.target.value)}
            className={input}
          />
          <input
            aria-label="Hashtags"
            placeholder="#spring #launch"
            value={tags}
            onChange={(event) => setTags(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') save(event);
            }}
            className={input}
          />
          {saving.isError && (
            <p role="alert" className="text-sm text-red-700">
              {errorMessage(saving.error, 'The group could not be saved.')}
            </p>
          )}
          <div className="flex justify-end gap-2">
            {editing && (
              <button
                type="button"
                onClick={reset}
                className="rounded-md px-3 py-1.5 text-sm font-semibold text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                Cancel
              </button>
            )}
            <button
              type="button"
              onClick={save}
              disabled={saving.isPending}
              className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-60"
            >
              {editing ? 'Save changes' : 'Save group'}
            </button>
          </div>
        </div>
      </div>
    </TextToolPopover>
  );
}
