import {
  YOUTUBE_CATEGORIES,
  YOUTUBE_PRIVACY_LABELS,
  YOUTUBE_PRIVACY_STATUSES,
  YouTubePostSettingsSchema,
  isYouTubeShort,
  youtubeSettingsIssues,
  type MediaFacts,
  type Post,
  type YouTubePostSettings,
  type YouTubeSettingsField,
} from '@herald/contract';
import { CircleAlert } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/cn';
import type { ComposePlatform } from '../utils/compose-platforms';
import { mediaFor, type ComposeState } from '../utils/compose-state';

export const YOUTUBE_SECTION_ID = 'youtube-settings';

/** Settings nothing was chosen in yet: no title, and the made-for-kids answer unsaid. */
export const emptyYouTubeSettings = (): YouTubePostSettings => YouTubePostSettingsSchema.parse({});

/**
 * The composer's YouTube settings per YouTube account (docs/networks.md#youtube-publishing):
 * started from the post when editing, checked before Create or Schedule.
 */
export function useYouTubeSettings(
  state: ComposeState,
  editable: readonly ComposePlatform[],
  post: Post | undefined,
) {
  const [settings, setSettings] = useState<Record<string, YouTubePostSettings>>(() =>
    Object.fromEntries(
      (post?.platformPosts ?? []).flatMap((p) =>
        p.youtube && p.integrationId ? [[p.integrationId, p.youtube]] : [],
      ),
    ),
  );
  const ids = editable.filter((p) => p.name === 'YouTube').map((p) => p.id);
  const mediaOf = (id: string): MediaFacts[] => mediaFor(state, id).map((m) => m.facts);
  // YouTube's scheduling is offered for a public video going out at a later time only; a choice
  // left from before (the time or visibility changed since) is not sent.
  const later = state.action === 'schedule';
  const sent = (id: string): YouTubePostSettings => {
    const chosen = settings[id] ?? emptyYouTubeSettings();
    return chosen.scheduleOnYouTube && !(later && chosen.privacyStatus === 'public')
      ? { ...chosen, scheduleOnYouTube: false }
      : chosen;
  };
  return {
    settings,
    mediaOf,
    /** Whether the post goes out at a later time, where YouTube's scheduling is offered. */
    laterTime: later,
    change: (id: string, next: YouTubePostSettings) =>
      setSettings((all) => ({ ...all, [id]: next })),
    /** Whether every selected YouTube account has what YouTube needs. */
    isReady: () => ids.every((id) => youtubeSettingsIssues(sent(id), mediaOf(id)).length === 0),
    forDraft: () => Object.fromEntries(ids.map((id) => [id, sent(id)])),
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

/**
 * "YouTube publishes at the scheduled time": shown for a public video going out at a later time
 * only, the one case YouTube's `publishAt` serves.
 */
function ScheduleOnYouTube({
  id,
  checked,
  onChange,
}: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-start gap-2 text-sm">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5"
        checked={checked}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.checked)}
      />
      <div className="flex flex-col gap-0.5">
        <label htmlFor={id}>YouTube publishes at the scheduled time</label>
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          Herald uploads the video now, as private, and YouTube makes it public at the scheduled
          time, so a long upload cannot make it late. Changes to the post before then follow it to
          YouTube.
        </p>
      </div>
    </div>
  );
}

function YouTubeAccountSettings({
  platform,
  settings,
  onChange,
  media,
  showProblems,
  laterTime,
}: {
  platform: ComposePlatform;
  settings: YouTubePostSettings;
  onChange: (settings: YouTubePostSettings) => void;
  media: MediaFacts[];
  showProblems: boolean;
  laterTime: boolean;
}) {
  const set = (patch: Partial<YouTubePostSettings>) => onChange({ ...settings, ...patch });
  const issues = showProblems ? youtubeSettingsIssues(settings, media) : [];
  const errorsOf = (field: YouTubeSettingsField) =>
    issues.filter((i) => i.field === field).map((i) => i.message);
  const id = (name: string) => `youtube-${name}-${platform.id}`;
  const video = media.find((m) => m.mimeType.startsWith('video/'));
  const invalid = (field: YouTubeSettingsField) => errorsOf(field).length > 0;
  const described = (field: YouTubeSettingsField) =>
    invalid(field) ? { 'aria-invalid': true, 'aria-describedby': `${id(field)}-error` } : {};
  return (
    <fieldset
      className="flex flex-col gap-3 rounded-lg border p-4"
      aria-label={`${platform.label} settings`}
    >
      <legend className="px-1 text-sm font-semibold">{platform.label}</legend>
      <p className="text-sm text-slate-600" data-testid="youtube-kind">
        {video
          ? isYouTubeShort(video)
            ? 'This video is vertical and at most 3 minutes long: YouTube makes it a Short.'
            : 'This video goes up as a regular YouTube video.'
          : 'Add one video: YouTube posts are videos. The post’s text is its description.'}
      </p>
      <div className="flex flex-col gap-1">
        <label htmlFor={id('title')} className="text-sm font-medium">
          Title (required)
        </label>
        <input
          id={id('title')}
          value={settings.title}
          maxLength={200}
          className={fieldClass(invalid('title'))}
          onChange={(e) => set({ title: e.target.value })}
          {...described('title')}
        />
        <FieldErrors id={`${id('title')}-error`} messages={errorsOf('title')} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={id('tags')} className="text-sm font-medium">
          Tags (comma-separated)
        </label>
        <input
          id={id('tags')}
          defaultValue={settings.tags.join(', ')}
          className={fieldClass(invalid('tags'))}
          onChange={(e) =>
            set({
              tags: e.target.value
                .split(',')
                .map((t) => t.trim())
                .filter(Boolean),
            })
          }
          {...described('tags')}
        />
        <FieldErrors id={`${id('tags')}-error`} messages={errorsOf('tags')} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={id('category')} className="text-sm font-medium">
            Category
          </label>
          <select
            id={id('category')}
            value={settings.categoryId}
            className={fieldClass(invalid('category'))}
            onChange={(e) => set({ categoryId: e.target.value })}
          >
            {Object.entries(YOUTUBE_CATEGORIES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={id('privacy')} className="text-sm font-medium">
            Visibility
          </label>
          <select
            id={id('privacy')}
            value={settings.privacyStatus}
            className={fieldClass(false)}
            onChange={(e) =>
              set({ privacyStatus: e.target.value as YouTubePostSettings['privacyStatus'] })
            }
          >
            {YOUTUBE_PRIVACY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {YOUTUBE_PRIVACY_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="flex flex-col gap-1" {...described('madeForKids')}>
        <legend className="text-sm font-medium">Is this video made for kids? (required)</legend>
        <div className="flex gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={id('kids')}
              checked={settings.madeForKids === true}
              onChange={() => set({ madeForKids: true })}
            />
            Yes, it’s made for kids
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={id('kids')}
              checked={settings.madeForKids === false}
              onChange={() => set({ madeForKids: false })}
            />
            No, it’s not made for kids
          </label>
        </div>
        <FieldErrors id={`${id('madeForKids')}-error`} messages={errorsOf('madeForKids')} />
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={settings.notifySubscribers}
          onChange={(e) => set({ notifySubscribers: e.target.checked })}
        />
        Notify subscribers
      </label>
      {laterTime && settings.privacyStatus === 'public' && (
        <ScheduleOnYouTube
          id={id('schedule')}
          checked={settings.scheduleOnYouTube}
          onChange={(scheduleOnYouTube) => set({ scheduleOnYouTube })}
        />
      )}
      <p className="text-xs text-slate-600">
        Custom thumbnail: add a JPEG or PNG image (up to 2 MB) beside the video in the YouTube
        version of this post.
      </p>
      <FieldErrors id={`${id('thumbnail')}-error`} messages={errorsOf('thumbnail')} />
    </fieldset>
  );
}

/** The YouTube section of the composer: one block per selected YouTube channel. */
export function YouTubeSection({
  selected,
  settings,
  onChange,
  mediaOf,
  showProblems,
  laterTime = false,
}: {
  selected: readonly ComposePlatform[];
  settings: Record<string, YouTubePostSettings>;
  onChange: (integrationId: string, settings: YouTubePostSettings) => void;
  mediaOf: (integrationId: string) => MediaFacts[];
  showProblems: boolean;
  /** The post is scheduled for a later time: YouTube's scheduling is offered. */
  laterTime?: boolean;
}) {
  const youtube = selected.filter((p) => p.name === 'YouTube');
  if (youtube.length === 0) return null;
  return (
    <section
      id={YOUTUBE_SECTION_ID}
      aria-label="YouTube"
      className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 className="text-base font-semibold text-slate-900">YouTube settings</h2>
      {youtube.map((platform) => (
        <YouTubeAccountSettings
          key={platform.id}
          platform={platform}
          settings={settings[platform.id] ?? emptyYouTubeSettings()}
          onChange={(next) => onChange(platform.id, next)}
          media={mediaOf(platform.id)}
          showProblems={showProblems}
          laterTime={laterTime}
        />
      ))}
    </section>
  );
}
