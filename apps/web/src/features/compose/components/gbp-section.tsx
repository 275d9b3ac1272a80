import {
  GBP_ACTION_LABELS,
  GBP_ACTION_TYPES,
  GBP_TOPIC_LABELS,
  GBP_TOPIC_TYPES,
  GbpPostSettingsSchema,
  emptyGbpSettings,
  gbpSettingsIssues,
  type GbpActionType,
  type GbpEvent,
  type GbpPostSettings,
  type GbpSettingsField,
  type GbpTopicType,
} from '@herald/contract';
import { CircleAlert } from 'lucide-react';
import { cn } from '@/lib/cn';
import type { ComposePlatform } from '../utils/compose-platforms';
import type { ComposeEvent, ComposeState } from '../utils/compose-state';

export const GBP_SECTION_ID = 'google-business-settings';
const NETWORK = 'Google Business Profile';

const emptyEvent = (): GbpEvent => ({
  title: '',
  startDate: null,
  startTime: null,
  endDate: null,
  endTime: null,
});

/** What is wrong with one location's settings, by field: the schema's, then Google's rules. */
export function gbpIssues(settings: GbpPostSettings | undefined) {
  const issues: Partial<Record<GbpSettingsField | 'other', string>> = {};
  const parsed = GbpPostSettingsSchema.safeParse(settings ?? emptyGbpSettings());
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.');
      const field: GbpSettingsField | 'other' = path.startsWith('event.title')
        ? 'title'
        : path.startsWith('event')
          ? 'schedule'
          : path.startsWith('offer')
            ? 'offer'
            : path.startsWith('callToAction')
              ? 'callToAction'
              : 'other';
      issues[field] ??= issue.message;
    }
    return issues;
  }
  for (const issue of gbpSettingsIssues(parsed.data)) issues[issue.field] ??= issue.message;
  return issues;
}

/**
 * The composer's Google Business Profile settings per location, kept in the form's state (so the
 * autosaved draft keeps them, and editing or duplicating a post starts from its own).
 */
export function useGbpSettings(
  state: ComposeState,
  dispatch: (event: ComposeEvent) => void,
  editable: readonly ComposePlatform[],
) {
  const settings = state.googleBusiness ?? {};
  const ids = editable.filter((p) => p.name === NETWORK).map((p) => p.id);
  return {
    settings,
    change: (integrationId: string, next: GbpPostSettings) =>
      dispatch({ type: 'setGoogleBusiness', platformId: integrationId, settings: next }),
    isReady: () => ids.every((id) => Object.keys(gbpIssues(settings[id])).length === 0),
    forDraft: () =>
      Object.fromEntries(
        ids.flatMap((id) => {
          const parsed = GbpPostSettingsSchema.safeParse(settings[id] ?? {});
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
  settings: GbpPostSettings;
  onChange: (next: GbpPostSettings) => void;
  showProblems: boolean;
  disabled?: boolean;
}

function GbpLocationSettings({
  platform,
  settings,
  onChange,
  showProblems,
  disabled,
}: AccountProps) {
  const set = (patch: Partial<GbpPostSettings>) => onChange({ ...settings, ...patch });
  const event = settings.event ?? emptyEvent();
  const setEvent = (patch: Partial<GbpEvent>) => set({ event: { ...event, ...patch } });
  const offer = settings.offer ?? { couponCode: '', redeemOnlineUrl: '', termsConditions: '' };
  const setOffer = (patch: Partial<typeof offer>) => set({ offer: { ...offer, ...patch } });
  const all = gbpIssues(settings);
  // Missing fields are said once the person tries to send; a wrong value at once.
  const issues = showProblems ? all : {};
  const base = `gbp-${platform.id}`;
  const field = (name: string) => `${base}-${name}`;
  const inputClass = (bad: boolean) =>
    cn(
      'w-full rounded-md border bg-white px-2 py-1.5 text-sm',
      bad ? 'border-red-400' : 'border-slate-300',
    );
  const dated = settings.topicType !== 'STANDARD';
  const described = (name: string, bad: boolean) =>
    bad ? { 'aria-invalid': true as const, 'aria-describedby': `${field(name)}-error` } : {};
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border p-4" disabled={disabled}>
      <legend className="px-1 text-sm font-semibold">{platform.label}</legend>
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium" id={field('type-label')}>
          Post type
        </span>
        <div
          role="radiogroup"
          aria-labelledby={field('type-label')}
          className="flex flex-wrap gap-2"
        >
          {GBP_TOPIC_TYPES.map((t) => (
            <label
              key={t}
              className={cn(
                'flex cursor-pointer items-center gap-2 rounded-md border px-3 py-1.5 text-sm',
                settings.topicType === t ? 'border-blue-600 bg-blue-50' : 'border-slate-300',
              )}
            >
              <input
                type="radio"
                name={field('type')}
                value={t}
                checked={settings.topicType === t}
                onChange={() =>
                  set({
                    topicType: t as GbpTopicType,
                    // Google shows no button on offers.
                    ...(t === 'OFFER' ? { callToAction: null } : {}),
                  })
                }
              />
              {GBP_TOPIC_LABELS[t]}
            </label>
          ))}
        </div>
      </div>
      {dated && (
        <>
          <div className="flex flex-col gap-1">
            <label htmlFor={field('title')} className="text-sm font-medium">
              {settings.topicType === 'EVENT' ? 'Event title' : 'Offer title'}
            </label>
            <input
              id={field('title')}
              type="text"
              value={event.title}
              className={inputClass(Boolean(issues.title))}
              {...described('title', Boolean(issues.title))}
              onChange={(e) => setEvent({ title: e.target.value })}
            />
            <FieldError id={`${field('title')}-error`} message={issues.title} />
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            {(
              [
                ['startDate', 'Starts on', 'date'],
                ['startTime', 'at (optional)', 'time'],
                ['endDate', 'Ends on', 'date'],
                ['endTime', 'at (optional)', 'time'],
              ] as const
            ).map(([key, label, type]) => (
              <div key={key} className="flex flex-col gap-1">
                <label htmlFor={field(key)} className="text-sm font-medium">
                  {label}
                </label>
                <input
                  id={field(key)}
                  type={type}
                  value={event[key] ?? ''}
                  className={inputClass(Boolean(issues.schedule) && type === 'date')}
                  {...(type === 'date' ? described('schedule', Boolean(issues.schedule)) : {})}
                  onChange={(e) => setEvent({ [key]: e.target.value || null })}
                />
              </div>
            ))}
          </div>
          <FieldError id={`${field('schedule')}-error`} message={issues.schedule} />
        </>
      )}
      {settings.topicType === 'OFFER' && (
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={field('coupon')} className="text-sm font-medium">
              Coupon code (optional)
            </label>
            <input
              id={field('coupon')}
              type="text"
              value={offer.couponCode}
              className={inputClass(false)}
              onChange={(e) => setOffer({ couponCode: e.target.value })}
            />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={field('redeem')} className="text-sm font-medium">
              Link to redeem (optional)
            </label>
            <input
              id={field('redeem')}
              type="url"
              value={offer.redeemOnlineUrl}
              placeholder="https://"
              className={inputClass(Boolean(all.offer))}
              {...described('offer', Boolean(all.offer))}
              onChange={(e) => setOffer({ redeemOnlineUrl: e.target.value })}
            />
          </div>
          <div className="flex flex-col gap-1 sm:col-span-2">
            <label htmlFor={field('terms')} className="text-sm font-medium">
              Terms and conditions (optional)
            </label>
            <textarea
              id={field('terms')}
              rows={2}
              value={offer.termsConditions}
              className={inputClass(false)}
              onChange={(e) => setOffer({ termsConditions: e.target.value })}
            />
          </div>
          <FieldError id={`${field('offer')}-error`} message={all.offer} />
        </div>
      )}
      {settings.topicType !== 'OFFER' && (
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={field('action')} className="text-sm font-medium">
              Button
            </label>
            <select
              id={field('action')}
              className={inputClass(false)}
              value={settings.callToAction?.actionType ?? ''}
              onChange={(e) =>
                set({
                  callToAction: e.target.value
                    ? {
                        actionType: e.target.value as GbpActionType,
                        url: settings.callToAction?.url ?? '',
                      }
                    : null,
                })
              }
            >
              <option value="">No button</option>
              {GBP_ACTION_TYPES.map((a) => (
                <option key={a} value={a}>
                  {GBP_ACTION_LABELS[a]}
                </option>
              ))}
            </select>
          </div>
          {settings.callToAction && settings.callToAction.actionType !== 'CALL' && (
            <div className="flex flex-col gap-1">
              <label htmlFor={field('url')} className="text-sm font-medium">
                Button link
              </label>
              <input
                id={field('url')}
                type="url"
                placeholder="https://"
                value={settings.callToAction.url}
                className={inputClass(Boolean(issues.callToAction ?? all.callToAction))}
                {...described('callToAction', Boolean(issues.callToAction))}
                onChange={(e) =>
                  set({ callToAction: { ...settings.callToAction!, url: e.target.value } })
                }
              />
            </div>
          )}
          <div className="sm:col-span-2">
            <FieldError id={`${field('callToAction')}-error`} message={issues.callToAction} />
          </div>
        </div>
      )}
    </fieldset>
  );
}

interface GbpSectionProps {
  selected: readonly ComposePlatform[];
  settings: Record<string, GbpPostSettings>;
  onChange: (integrationId: string, settings: GbpPostSettings) => void;
  showProblems: boolean;
  disabled?: boolean;
}

/** The Google Business Profile section of the composer: one block per selected location. */
export function GbpSection({
  selected,
  settings,
  onChange,
  showProblems,
  disabled,
}: GbpSectionProps) {
  const locations = selected.filter((p) => p.name === NETWORK);
  if (locations.length === 0) return null;
  return (
    <section
      id={GBP_SECTION_ID}
      aria-label="Google Business Profile"
      className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 className="text-base font-semibold text-slate-900">Google Business Profile post</h2>
      <p className="text-sm text-slate-600">
        An update, an event or an offer, with one photo at most. Google shows it on the location’s
        profile in Search and Maps.
      </p>
      {locations.map((platform) => (
        <GbpLocationSettings
          key={platform.id}
          platform={platform}
          settings={settings[platform.id] ?? emptyGbpSettings()}
          onChange={(next) => onChange(platform.id, next)}
          showProblems={showProblems}
          disabled={disabled}
        />
      ))}
    </section>
  );
}
