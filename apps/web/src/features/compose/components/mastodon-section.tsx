import {
  MASTODON_SPOILER_MAX,
  MASTODON_VISIBILITIES,
  MASTODON_VISIBILITY_LABELS,
  MastodonPostSettingsSchema,
  emptyMastodonSettings,
  type MastodonPostSettings,
  type MastodonVisibility,
} from '@herald/contract';
import { CircleAlert } from 'lucide-react';
import { cn } from '@/lib/cn';
import type { ComposePlatform } from '../utils/compose-platforms';
import type { ComposeEvent, ComposeState } from '../utils/compose-state';

export const MASTODON_SECTION_ID = 'mastodon-settings';

/** Languages offered first (ISO 639-1); any other two-letter code can be typed in the field. */
const COMMON_LANGUAGES = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'pt',
  'nl',
  'pl',
  'sv',
  'da',
  'fi',
  'no',
  'cs',
  'el',
  'tr',
  'uk',
  'ru',
  'ja',
  'ko',
  'zh',
  'ar',
  'he',
  'hi',
  'id',
  'ca',
  'eu',
  'gl',
  'cy',
  'ga',
] as const;

const languageName = (code: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
};

/** What is wrong with one account's settings, by field, in the contract's own sentences. */
export function mastodonIssues(settings: MastodonPostSettings | undefined) {
  const parsed = MastodonPostSettingsSchema.safeParse(settings ?? emptyMastodonSettings());
  const issues: Partial<Record<keyof MastodonPostSettings, string>> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0] as keyof MastodonPostSettings;
    issues[field] ??= issue.message;
  }
  return issues;
}

/**
 * The composer's Mastodon settings per Mastodon account, kept in the form's state (so the
 * autosaved draft keeps them, and editing or duplicating a post starts from its own), sent with
 * the selected Mastodon accounts.
 */
export function useMastodonSettings(
  state: ComposeState,
  dispatch: (event: ComposeEvent) => void,
  editable: readonly ComposePlatform[],
) {
  const settings = state.mastodon ?? {};
  const ids = editable.filter((p) => p.name === 'Mastodon').map((p) => p.id);
  return {
    settings,
    change: (integrationId: string, next: MastodonPostSettings) =>
      dispatch({ type: 'setMastodon', platformId: integrationId, settings: next }),
    isReady: () => ids.every((id) => Object.keys(mastodonIssues(settings[id])).length === 0),
    /** What is sent: the selected Mastodon accounts' settings only, as the contract reads them. */
    forDraft: () =>
      Object.fromEntries(
        ids.flatMap((id) => {
          const parsed = MastodonPostSettingsSchema.safeParse(settings[id] ?? {});
          return parsed.success ? [[id, parsed.data]] : [];
        }),
      ),
  };
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="flex items-start gap-1.5 text-sm text-red-700">
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {message}
    </p>
  );
}

interface AccountProps {
  platform: ComposePlatform;
  settings: MastodonPostSettings;
  onChange: (next: MastodonPostSettings) => void;
  disabled?: boolean;
}

function MastodonAccountSettings({ platform, settings, onChange, disabled }: AccountProps) {
  const set = (patch: Partial<MastodonPostSettings>) => onChange({ ...settings, ...patch });
  const issues = mastodonIssues(settings);
  const base = `mastodon-${platform.id}`;
  const field = (name: string) => `${base}-${name}`;
  const inputClass = (bad: boolean) =>
    cn(
      'w-full rounded-md border bg-white px-2 py-1.5 text-sm',
      bad ? 'border-red-400' : 'border-slate-300',
    );
  const languages = [
    ...COMMON_LANGUAGES,
    ...(settings.language && !(COMMON_LANGUAGES as readonly string[]).includes(settings.language)
      ? [settings.language]
      : []),
  ];
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border p-4" disabled={disabled}>
      <legend className="px-1 text-sm font-semibold">{platform.label}</legend>
      <div className="flex flex-col gap-1">
        <label htmlFor={field('cw')} className="text-sm font-medium">
          Content warning
        </label>
        <input
          id={field('cw')}
          type="text"
          value={settings.spoilerText}
          maxLength={MASTODON_SPOILER_MAX + 50}
          placeholder="None: the post shows at once"
          aria-invalid={issues.spoilerText ? true : undefined}
          aria-describedby={`${field('cw')}-hint${issues.spoilerText ? ` ${field('cw')}-error` : ''}`}
          className={inputClass(Boolean(issues.spoilerText))}
          onChange={(e) => set({ spoilerText: e.target.value })}
        />
        <p id={`${field('cw')}-hint`} className="text-xs text-slate-600">
          Readers see this first and open the post with “Show more”. It counts in the post’s
          characters.
        </p>
        <FieldError id={`${field('cw')}-error`} message={issues.spoilerText} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={field('visibility')} className="text-sm font-medium">
            Visibility
          </label>
          <select
            id={field('visibility')}
            className={inputClass(Boolean(issues.visibility))}
            value={settings.visibility ?? ''}
            onChange={(e) =>
              set({ visibility: (e.target.value || null) as MastodonVisibility | null })
            }
          >
            <option value="">The account’s default</option>
            {MASTODON_VISIBILITIES.map((v) => (
              <option key={v} value={v}>
                {MASTODON_VISIBILITY_LABELS[v]}
              </option>
            ))}
          </select>
          <FieldError id={`${field('visibility')}-error`} message={issues.visibility} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={field('language')} className="text-sm font-medium">
            Language
          </label>
          <select
            id={field('language')}
            className={inputClass(Boolean(issues.language))}
            value={settings.language ?? ''}
            onChange={(e) => set({ language: e.target.value || null })}
          >
            <option value="">Let the server decide</option>
            {languages.map((code) => (
              <option key={code} value={code}>
                {languageName(code)} ({code})
              </option>
            ))}
          </select>
          <FieldError id={`${field('language')}-error`} message={issues.language} />
        </div>
      </div>
    </fieldset>
  );
}

interface MastodonSectionProps {
  /** The selected accounts; the section shows the Mastodon ones. */
  selected: readonly ComposePlatform[];
  settings: Record<string, MastodonPostSettings>;
  onChange: (integrationId: string, settings: MastodonPostSettings) => void;
  disabled?: boolean;
}

/** The Mastodon section of the composer: one block per selected Mastodon account. */
export function MastodonSection({ selected, settings, onChange, disabled }: MastodonSectionProps) {
  const mastodon = selected.filter((p) => p.name === 'Mastodon');
  if (mastodon.length === 0) return null;
  return (
    <section
      id={MASTODON_SECTION_ID}
      aria-label="Mastodon"
      className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 className="text-base font-semibold text-slate-900">Mastodon settings</h2>
      {mastodon.map((platform) => (
        <MastodonAccountSettings
          key={platform.id}
          platform={platform}
          settings={settings[platform.id] ?? emptyMastodonSettings()}
          onChange={(next) => onChange(platform.id, next)}
          disabled={disabled}
        />
      ))}
    </section>
  );
}
