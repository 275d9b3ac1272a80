import {
  PINTEREST_LINK_MAX,
  PINTEREST_TITLE_MAX,
  PinterestPostSettingsSchema,
  pinterestSettingsIssues,
  type PinterestPostSettings,
  type PinterestSettingsField,
  type Post,
} from '@herald/contract';
import { CircleAlert } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/cn';
import { useCreatePinterestBoard, usePinterestBoards } from '../api/use-pinterest-boards';
import type { ComposePlatform } from '../utils/compose-platforms';

export const PINTEREST_SECTION_ID = 'pinterest-settings';

/** Settings nothing was chosen in yet: no board, no title, no link. */
export const emptyPinterestSettings = (): PinterestPostSettings =>
  PinterestPostSettingsSchema.parse({});

/**
 * The composer's pin settings per Pinterest account (docs/networks.md#pinterest-publishing):
 * started from the post when editing, checked before Create or Schedule.
 */
export function usePinterestSettings(editable: readonly ComposePlatform[], post: Post | undefined) {
  const [settings, setSettings] = useState<Record<string, PinterestPostSettings>>(() =>
    Object.fromEntries(
      (post?.platformPosts ?? []).flatMap((p) =>
        p.pinterest && p.integrationId ? [[p.integrationId, p.pinterest]] : [],
      ),
    ),
  );
  const ids = editable.filter((p) => p.name === 'Pinterest').map((p) => p.id);
  return {
    settings,
    change: (id: string, next: PinterestPostSettings) =>
      setSettings((all) => ({ ...all, [id]: next })),
    /** Whether every selected Pinterest account has its board, and a title and link it takes. */
    isReady: () =>
      ids.every(
        (id) => pinterestSettingsIssues(settings[id] ?? emptyPinterestSettings()).length === 0,
      ),
    forDraft: () =>
      Object.fromEntries(ids.map((id) => [id, settings[id] ?? emptyPinterestSettings()])),
    /** What the preview shows of the pin besides its text and files. */
    pinOf: (id: string) => {
      const s = settings[id];
      return s ? { title: s.title, link: s.link, boardName: s.boardName } : undefined;
    },
  };
}

function FieldErrors({ id, messages }: { id: string; messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul id={id} role="alert" className="flex flex-col gap-1 text-sm text-red-700">
      {messages.map((message) => (
        <li key={message} className="flex items-start gap-1.5">
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {message}
        </li>
      ))}
    </ul>
  );
}

const fieldClass = (invalid: boolean) =>
  cn(
    'rounded-md border bg-white px-2 py-1.5 text-sm',
    invalid ? 'border-red-400' : 'border-slate-300',
  );

/** A new board, named in place; chosen for the pin once Pinterest made it. */
function NewBoard({
  orgId,
  platform,
  onMade,
}: {
  orgId: string;
  platform: ComposePlatform;
  onMade: (board: { id: string; name: string }) => void;
}) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [secret, setSecret] = useState(false);
  const create = useCreatePinterestBoard(orgId, platform.id);
  const id = `pinterest-new-board-${platform.id}`;
  if (!open)
    return (
      <button
        type="button"
        className="self-start text-sm font-medium text-sky-700 underline"
        onClick={() => setOpen(true)}
      >
        New board
      </button>
    );
  return (
    <div className="flex flex-col gap-2 rounded-md border border-slate-200 p-3">
      <label htmlFor={id} className="text-sm font-medium">
        New board’s name
      </label>
      <input
        id={id}
        value={name}
        maxLength={180}
        className={fieldClass(false)}
        onChange={(e) => setName(e.target.value)}
      />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={secret} onChange={(e) => setSecret(e.target.checked)} />
        Secret board (only you and collaborators see it)
      </label>
      {create.error && <FieldErrors id={`${id}-error`} messages={[create.error.message]} />}
      <div className="flex gap-2">
        <button
          type="button"
          className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50"
          disabled={!name.trim() || create.isPending}
          onClick={() =>
            create.mutate(
              { name: name.trim(), privacy: secret ? 'SECRET' : 'PUBLIC' },
              {
                onSuccess: (board) => {
                  onMade(board);
                  setName('');
                  setOpen(false);
                },
              },
            )
          }
        >
          {create.isPending ? 'Creating…' : 'Create board'}
        </button>
        <button type="button" className="text-sm" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function PinterestAccountSettings({
  orgId,
  platform,
  settings,
  onChange,
  showProblems,
}: {
  orgId: string;
  platform: ComposePlatform;
  settings: PinterestPostSettings;
  onChange: (settings: PinterestPostSettings) => void;
  showProblems: boolean;
}) {
  const boards = usePinterestBoards(orgId, platform.id);
  const set = (patch: Partial<PinterestPostSettings>) => onChange({ ...settings, ...patch });
  const issues = showProblems ? pinterestSettingsIssues(settings) : [];
  const errorsOf = (field: PinterestSettingsField) =>
    issues.filter((i) => i.field === field).map((i) => i.message);
  const id = (name: string) => `pinterest-${name}-${platform.id}`;
  const invalid = (field: PinterestSettingsField) => errorsOf(field).length > 0;
  const described = (field: PinterestSettingsField) =>
    invalid(field) ? { 'aria-invalid': true, 'aria-describedby': `${id(field)}-error` } : {};
  return (
    <fieldset
      className="flex flex-col gap-3 rounded-lg border p-4"
      aria-label={`${platform.label} settings`}
    >
      <legend className="px-1 text-sm font-semibold">{platform.label}</legend>
      <p className="text-sm text-slate-600">
        One image, a carousel of 2 to 5 images, or one video (an image beside it becomes its cover).
        The post’s text is the pin’s description; each image’s alt text goes with it.
      </p>
      <div className="flex flex-col gap-1">
        <label htmlFor={id('board')} className="text-sm font-medium">
          Board (required)
        </label>
        <select
          id={id('board')}
          value={settings.boardId}
          className={fieldClass(invalid('board'))}
          disabled={boards.isPending}
          onChange={(e) => {
            const board = boards.data?.find((b) => b.id === e.target.value);
            set({ boardId: e.target.value, boardName: board?.name ?? '' });
          }}
          {...described('board')}
        >
          <option value="">{boards.isPending ? 'Reading boards…' : 'Choose a board'}</option>
          {settings.boardId && !boards.data?.some((b) => b.id === settings.boardId) && (
            <option value={settings.boardId}>{settings.boardName || settings.boardId}</option>
          )}
          {boards.data?.map((board) => (
            <option key={board.id} value={board.id}>
              {board.name}
              {board.privacy === 'SECRET' ? ' (secret)' : ''}
            </option>
          ))}
        </select>
        {boards.error && (
          <FieldErrors id={`${id('boards')}-error`} messages={[boards.error.message]} />
        )}
        <FieldErrors id={`${id('board')}-error`} messages={errorsOf('board')} />
        <NewBoard
          orgId={orgId}
          platform={platform}
          onMade={(board) => set({ boardId: board.id, boardName: board.name })}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={id('title')} className="text-sm font-medium">
          Title
        </label>
        <input
          id={id('title')}
          value={settings.title}
          maxLength={200}
          className={fieldClass(invalid('title'))}
          onChange={(e) => set({ title: e.target.value })}
          {...described('title')}
        />
        <p className="text-xs text-slate-500">
          {[...settings.title.trim()].length}/{PINTEREST_TITLE_MAX}
        </p>
        <FieldErrors id={`${id('title')}-error`} messages={errorsOf('title')} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={id('link')} className="text-sm font-medium">
          Link (where the pin leads)
        </label>
        <input
          id={id('link')}
          type="url"
          inputMode="url"
          placeholder="https://"
          value={settings.link}
          maxLength={PINTEREST_LINK_MAX + 100}
          className={fieldClass(invalid('link'))}
          onChange={(e) => set({ link: e.target.value })}
          {...described('link')}
        />
        <FieldErrors id={`${id('link')}-error`} messages={errorsOf('link')} />
      </div>
    </fieldset>
  );
}

/** The Pinterest section of the composer: one block per selected Pinterest account. */
export function PinterestSection({
  orgId,
  selected,
  settings,
  onChange,
  showProblems,
}: {
  orgId: string;
  selected: readonly ComposePlatform[];
  settings: Record<string, PinterestPostSettings>;
  onChange: (integrationId: string, settings: PinterestPostSettings) => void;
  showProblems: boolean;
}) {
  const pinterest = selected.filter((p) => p.name === 'Pinterest');
  if (pinterest.length === 0) return null;
  return (
    <section
      id={PINTEREST_SECTION_ID}
      aria-label="Pinterest"
      className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 className="text-base font-semibold text-slate-900">Pinterest settings</h2>
      {pinterest.map((platform) => (
        <PinterestAccountSettings
          key={platform.id}
          orgId={orgId}
          platform={platform}
          settings={settings[platform.id] ?? emptyPinterestSettings()}
          onChange={(next) => onChange(platform.id, next)}
          showProblems={showProblems}
        />
      ))}
    </section>
  );
}
