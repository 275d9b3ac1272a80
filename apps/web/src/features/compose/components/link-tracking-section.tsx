import { utmSourceFor, type LinkTracking } from '@herald/contract';
import { useId } from 'react';
import type { ComposePlatform } from '../utils/compose-platforms';

const input =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200 disabled:bg-slate-50';

/**
 * docs/product.md#link-tracking: the post's UTM parameters. Off by default unless the
 * organization turned tracking on for new posts; the previews show the links as they go out.
 */
export function LinkTrackingSection({
  value,
  fallback,
  selected,
  onChange,
  disabled,
}: {
  value: LinkTracking | null;
  /** What switching tracking on starts from (the organization's default). */
  fallback: LinkTracking;
  selected: readonly ComposePlatform[];
  onChange: (value: LinkTracking | null) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const on = value !== null;
  const sources = [...new Set(selected.map((p) => utmSourceFor(p.name)))].join(', ');
  const set = (patch: Partial<LinkTracking>) => value && onChange({ ...value, ...patch });
  const campaignMissing = on && !value.campaign.trim();
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
          Link tracking
        </h2>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            checked={on}
            disabled={disabled}
            onChange={(event) => onChange(event.target.checked ? fallback : null)}
            className="size-4 accent-indigo-600"
          />
          Add UTM parameters to links
        </label>
      </div>
      {on ? (
        <div className="mt-4 grid gap-3 sm:grid-cols-3">
          <div>
            <label htmlFor={`${id}-campaign`} className="block text-sm font-medium text-slate-800">
              Campaign (utm_campaign)
            </label>
            <input
              id={`${id}-campaign`}
              value={value.campaign}
              disabled={disabled}
              maxLength={100}
              aria-invalid={campaignMissing || undefined}
              aria-describedby={campaignMissing ? `${id}-campaign-hint` : undefined}
              onChange={(event) => set({ campaign: event.target.value.replace(/[\s#&?=]/g, '-') })}
              className={`mt-1 ${input}`}
            />
            {campaignMissing && (
              <p id={`${id}-campaign-hint`} className="mt-1 text-xs text-amber-800">
                Name a campaign, or links go out without tracking.
              </p>
            )}
          </div>
          <div>
            <label htmlFor={`${id}-source`} className="block text-sm font-medium text-slate-800">
              Source (utm_source)
            </label>
            <input
              id={`${id}-source`}
              value={value.source ?? ''}
              placeholder={sources || 'each network'}
              disabled={disabled}
              maxLength={100}
              onChange={(event) =>
                set({ source: event.target.value.replace(/[\s#&?=]/g, '-') || null })
              }
              className={`mt-1 ${input}`}
            />
          </div>
          <div>
            <label htmlFor={`${id}-medium`} className="block text-sm font-medium text-slate-800">
              Medium (utm_medium)
            </label>
            <input
              id={`${id}-medium`}
              value={value.medium}
              disabled={disabled}
              maxLength={100}
              onChange={(event) => set({ medium: event.target.value.replace(/[\s#&?=]/g, '-') })}
              className={`mt-1 ${input}`}
            />
          </div>
          <p className="text-xs text-slate-600 sm:col-span-3">
            Left empty, the source is each network’s name. The previews show the links as they will
            be published; the text you write stays as it is.
          </p>
        </div>
      ) : (
        <p className="mt-2 text-sm text-slate-600">Links go out exactly as written.</p>
      )}
    </section>
  );
}
