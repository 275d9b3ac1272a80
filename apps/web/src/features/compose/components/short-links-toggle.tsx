import { shortLinkBase } from '@herald/contract';
import { useId } from 'react';

/**
 * docs/analytics.md#short-links: whether the post's links go out as Herald's short links, which
 * count clicks on the analytics screen. Starts from the organization's setting.
 */
export function ShortLinksToggle({
  value,
  onChange,
  disabled,
  base = shortLinkBase(window.location.origin),
}: {
  value: boolean;
  onChange: (value: boolean) => void;
  disabled?: boolean;
  /** Where the short links start: the app's own host. */
  base?: string;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
          Short links
        </h2>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            checked={value}
            disabled={disabled}
            onChange={(event) => onChange(event.target.checked)}
            aria-describedby={`${id}-hint`}
            className="size-4 accent-indigo-600"
          />
          Count clicks with short links
        </label>
      </div>
      <p id={`${id}-hint`} className="mt-2 text-sm text-slate-600">
        {value ? (
          <>
            Each link goes out as <span className="font-mono break-all">{base}…</span> and leads to
            the link as written <span className="whitespace-nowrap">(with its UTM parameters)</span>
            . Clicks are counted per account on the Analytics page; text limits count the short
            link.
          </>
        ) : (
          'Links go out as written; their clicks are not counted.'
        )}
      </p>
    </section>
  );
}
