import {
  TIKTOK_PRIVACY_LABELS,
  TikTokPostSettingsSchema,
  tiktokConsentSentence,
  tiktokSettingsIssues,
  type TikTokCreatorInfo,
  type TikTokPostSettings,
  type TikTokSettingsField,
  type TikTokSettingsIssue,
} from '@herald/contract';
import { CircleAlert } from 'lucide-react';
import { cn } from '@/lib/cn';
import { useTikTokCreator } from '../api/use-tiktok-creator';
import type { ComposePlatform } from '../utils/compose-platforms';

export const TIKTOK_SECTION_ID = 'tiktok-settings';

/** Settings nothing was chosen in yet: no privacy level, every interaction off. */
export const emptyTikTokSettings = (): TikTokPostSettings => TikTokPostSettingsSchema.parse({});

/** Why this account's TikTok settings cannot be sent yet, each with its field (empty when they can). */
export function tiktokIssues(
  settings: TikTokPostSettings | undefined,
  creator: TikTokCreatorInfo | null | undefined,
  hasVideo: boolean,
  videoSeconds: number | null,
): TikTokSettingsIssue[] {
  const chosen = settings ?? emptyTikTokSettings();
  const issues = tiktokSettingsIssues(chosen, creator ?? null, { hasVideo, videoSeconds });
  if (
    creator?.unaudited &&
    chosen.mode === 'direct' &&
    chosen.privacyLevel &&
    chosen.privacyLevel !== 'SELF_ONLY'
  )
    issues.unshift({
      field: 'privacy',
      message: 'Herald’s TikTok app is not audited yet: choose “Only me”.',
    });
  return issues;
}

/** The problems of one field, in red under it, read out when they appear. */
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

interface TikTokAccountProps {
  orgId: string;
  platform: ComposePlatform;
  settings: TikTokPostSettings;
  onChange: (settings: TikTokPostSettings) => void;
  hasVideo: boolean;
  videoSeconds: number | null;
  /** Shown once the user tried to create or schedule. */
  showProblems: boolean;
  disabled?: boolean;
}

function Toggle({
  label,
  checked,
  disabled,
  hint,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  hint?: string;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className={`flex items-center gap-2 text-sm ${disabled ? 'opacity-60' : ''}`}>
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>{label}</span>
      {hint ? <span className="text-xs text-slate-600">({hint})</span> : null}
    </label>
  );
}

/** One TikTok account's settings, as TikTok's content-sharing guidelines ask (docs/networks.md#tiktok-conformance). */
function TikTokAccountSettings({
  orgId,
  platform,
  settings,
  onChange,
  hasVideo,
  videoSeconds,
  showProblems,
  disabled,
}: TikTokAccountProps) {
  const creator = useTikTokCreator(orgId, platform.id);
  const info = creator.data;
  const set = (patch: Partial<TikTokPostSettings>) => onChange({ ...settings, ...patch });
  const inbox = settings.mode === 'inbox';
  const issues = showProblems ? tiktokIssues(settings, info, hasVideo, videoSeconds) : [];
  const errorsOf = (field: TikTokSettingsField) =>
    issues.filter((issue) => issue.field === field).map((issue) => issue.message);
  const privacyId = `tiktok-privacy-${platform.id}`;
  const privacyErrors = errorsOf('privacy');
  const offHint = 'turned off in this TikTok account';

  return (
    <fieldset
      className="flex flex-col gap-3 rounded-lg border p-4"
      aria-label={`${platform.label} settings`}
      disabled={disabled}
    >
      <legend className="px-1 text-sm font-semibold">{platform.label}</legend>
      {creator.isPending ? (
        <p className="text-sm">Asking TikTok what this account may post…</p>
      ) : null}
      {creator.isError ? (
        <FieldErrors
          id={`tiktok-creator-${platform.id}-error`}
          messages={[creator.error.message]}
        />
      ) : null}
      <FieldErrors id={`tiktok-video-${platform.id}-error`} messages={errorsOf('video')} />
      {info ? (
        <p className="text-sm">
          Posting as <strong>{info.nickname}</strong>
          {info.username ? <span className="text-slate-600"> @{info.username}</span> : null}
        </p>
      ) : null}
      {info?.maxVideoPostDurationSec && hasVideo ? (
        <p className="text-xs text-slate-600">
          This account can post videos of up to {info.maxVideoPostDurationSec} seconds.
        </p>
      ) : null}

      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={inbox}
          onChange={(e) => set({ mode: e.target.checked ? 'inbox' : 'direct' })}
        />
        <span>Send to TikTok inbox as a draft (finish in the TikTok app)</span>
      </label>

      {inbox ? (
        <p className="text-sm text-slate-600">
          TikTok notifies the creator, who chooses who can see it and the rest in the TikTok app
          before posting.
        </p>
      ) : (
        <>
          <div className="flex flex-col gap-1">
            <label htmlFor={privacyId} className="text-sm font-medium">
              Who can see this post
            </label>
            <select
              id={privacyId}
              aria-invalid={privacyErrors.length > 0 ? true : undefined}
              aria-describedby={privacyErrors.length > 0 ? `${privacyId}-error` : undefined}
              className={cn(
                'rounded-md border bg-white px-2 py-1.5 text-sm',
                privacyErrors.length > 0 ? 'border-red-400' : 'border-slate-300',
              )}
              value={settings.privacyLevel ?? ''}
              onChange={(e) =>
                set({
                  privacyLevel: (e.target.value || null) as TikTokPostSettings['privacyLevel'],
                })
              }
            >
              <option value="">Choose who can see it</option>
              {(info?.privacyLevelOptions ?? []).map((level) => (
                <option
                  key={level}
                  value={level}
                  disabled={level === 'SELF_ONLY' && settings.commercial && settings.brandedContent}
                >
                  {TIKTOK_PRIVACY_LABELS[level]}
                  {level === 'SELF_ONLY' && settings.commercial && settings.brandedContent
                    ? ' (branded content cannot be private)'
                    : ''}
                </option>
              ))}
            </select>
            <FieldErrors id={`${privacyId}-error`} messages={privacyErrors} />
            {info?.unaudited ? (
              <p className="text-xs text-slate-600">
                Only “Only me” is offered: TikTok has not audited Herald’s app yet, and until it
                does it accepts private posts only.
              </p>
            ) : null}
          </div>

          <div className="flex flex-col gap-1">
            <span className="text-sm font-medium">Allow users to</span>
            <div className="flex flex-wrap gap-4">
              <Toggle
                label="Comment"
                checked={settings.allowComments && !info?.commentDisabled}
                disabled={!info || info.commentDisabled}
                hint={info?.commentDisabled ? offHint : undefined}
                onChange={(allowComments) => set({ allowComments })}
              />
              {hasVideo ? (
                <>
                  <Toggle
                    label="Duet"
                    checked={settings.allowDuet && !info?.duetDisabled}
                    disabled={!info || info.duetDisabled}
                    hint={info?.duetDisabled ? offHint : undefined}
                    onChange={(allowDuet) => set({ allowDuet })}
                  />
                  <Toggle
                    label="Stitch"
                    checked={settings.allowStitch && !info?.stitchDisabled}
                    disabled={!info || info.stitchDisabled}
                    hint={info?.stitchDisabled ? offHint : undefined}
                    onChange={(allowStitch) => set({ allowStitch })}
                  />
                </>
              ) : null}
            </div>
            <FieldErrors
              id={`tiktok-interactions-${platform.id}-error`}
              messages={errorsOf('interactions')}
            />
          </div>

          {hasVideo ? null : (
            <Toggle
              label="Add music automatically"
              checked={settings.autoAddMusic}
              onChange={(autoAddMusic) => set({ autoAddMusic })}
            />
          )}

          <div className="flex flex-col gap-1">
            <Toggle
              label="Disclose post content (it promotes a brand, a product or a service)"
              checked={settings.commercial}
              onChange={(commercial) => set({ commercial })}
            />
            {settings.commercial ? (
              <div className="ml-6 flex flex-col gap-1">
                <Toggle
                  label="Your brand"
                  hint="you promote yourself or your own business; labelled “Promotional content”"
                  checked={settings.yourBrand}
                  onChange={(yourBrand) => set({ yourBrand })}
                />
                <Toggle
                  label="Branded content"
                  hint="you promote a third party; labelled “Paid partnership”"
                  checked={settings.brandedContent}
                  disabled={settings.privacyLevel === 'SELF_ONLY'}
                  onChange={(brandedContent) => set({ brandedContent })}
                />
                <FieldErrors
                  id={`tiktok-disclosure-${platform.id}-error`}
                  messages={errorsOf('disclosure')}
                />
                {settings.privacyLevel === 'SELF_ONLY' ? (
                  <p className="text-xs text-slate-600">
                    Branded content cannot be private (“Only me”).
                  </p>
                ) : null}
              </div>
            ) : null}
          </div>
          <p className="text-xs text-slate-600">{tiktokConsentSentence(settings)}</p>
        </>
      )}
    </fieldset>
  );
}

interface TikTokSectionProps {
  orgId: string;
  /** The selected accounts; the section shows the TikTok ones. */
  selected: readonly ComposePlatform[];
  settings: Record<string, TikTokPostSettings>;
  onChange: (integrationId: string, settings: TikTokPostSettings) => void;
  videoOf: (integrationId: string) => { hasVideo: boolean; seconds: number | null };
  showProblems: boolean;
  disabled?: boolean;
}

/** The TikTok section of the composer: one block per selected TikTok account. */
export function TikTokSection({
  selected,
  settings,
  onChange,
  videoOf,
  ...rest
}: TikTokSectionProps) {
  const tiktok = selected.filter((p) => p.name === 'TikTok');
  if (tiktok.length === 0) return null;
  return (
    <section
      id={TIKTOK_SECTION_ID}
      aria-label="TikTok"
      className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 className="text-base font-semibold text-slate-900">TikTok settings</h2>
      {tiktok.map((platform) => {
        const video = videoOf(platform.id);
        return (
          <TikTokAccountSettings
            key={platform.id}
            platform={platform}
            settings={settings[platform.id] ?? emptyTikTokSettings()}
            onChange={(next) => onChange(platform.id, next)}
            hasVideo={video.hasVideo}
            videoSeconds={video.seconds}
            {...rest}
          />
        );
      })}
    </section>
  );
}
