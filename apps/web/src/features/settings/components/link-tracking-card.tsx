import { DEFAULT_LINK_TRACKING, applyLinkTracking, type LinkTracking } from '@herald/contract';
import { Save } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { useLinkTrackingSettings, useSaveLinkTracking } from '@/lib/post-extras';
import { toast, toastError } from '@/lib/toast';

export const LINK_TRACKING_SAVED = 'Link tracking saved.';
export const LINK_TRACKING_SAVE_FAILED = 'Failed to save link tracking. Please try again.';

const EXAMPLE = 'https://example.com/spring-sale';
/** UTM values may not hold spaces or the characters that split a query string. */
const clean = (value: string) => value.replace(/[\s#&?=]/g, '-');

function LinkTrackingForm({
  orgId,
  saved,
}: {
  orgId: string;
  saved: { enabledByDefault: boolean; tracking: LinkTracking; shortLinks: boolean };
}) {
  const save = useSaveLinkTracking(orgId);
  const checkboxId = useId();
  const shortLinksId = useId();
  const [shortLinks, setShortLinks] = useState(saved.shortLinks);
  const [enabled, setEnabled] = useState(saved.enabledByDefault);
  const [tracking, setTracking] = useState<LinkTracking>(saved.tracking);
  const set = (patch: Partial<LinkTracking>) => setTracking((t) => ({ ...t, ...patch }));
  const campaignMissing = enabled && !tracking.campaign.trim();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (campaignMissing) return;
    save.mutate(
      { enabledByDefault: enabled, tracking, shortLinks },
      {
        onSuccess: () => toast.success(LINK_TRACKING_SAVED),
        onError: (error) => toastError(error, LINK_TRACKING_SAVE_FAILED),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 flex flex-col gap-4">
      <label htmlFor={checkboxId} className="flex items-start gap-2 text-sm text-slate-800">
        <input
          id={checkboxId}
          type="checkbox"
          checked={enabled}
          onChange={(event) => setEnabled(event.target.checked)}
          className="mt-0.5 size-4 accent-indigo-600"
        />
        <span>
          Track links in new posts by default
          <span className="block text-xs text-slate-600">
            Each post can still turn tracking off or change the campaign in the composer.
          </span>
        </span>
      </label>
      <label htmlFor={shortLinksId} className="flex items-start gap-2 text-sm text-slate-800">
        <input
          id={shortLinksId}
          type="checkbox"
          checked={shortLinks}
          onChange={(event) => setShortLinks(event.target.checked)}
          className="mt-0.5 size-4 accent-indigo-600"
        />
        <span>
          Use short links that count clicks
          <span className="block text-xs text-slate-600">
            Links go out as {window.location.origin}/l/… and their clicks show on the Analytics
            page. Posts made through the API or a feed follow this unless they say otherwise.
          </span>
        </span>
      </label>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Campaign (utm_campaign)"
          value={tracking.campaign}
          maxLength={100}
          onChange={(event) => set({ campaign: clean(event.target.value) })}
          error={campaignMissing ? 'Name a campaign to track links by default.' : null}
        />
        <TextField
          label="Medium (utm_medium)"
          value={tracking.medium}
          maxLength={100}
          onChange={(event) => set({ medium: clean(event.target.value) })}
        />
        <TextField
          label="Source (utm_source)"
          value={tracking.source ?? ''}
          placeholder="Each network’s name"
          maxLength={100}
          onChange={(event) => set({ source: clean(event.target.value) || null })}
          hint="Left empty, each network gets its own name: x, facebook, linkedin…"
        />
        <TextField
          label="Content (utm_content, optional)"
          value={tracking.content ?? ''}
          maxLength={100}
          onChange={(event) => set({ content: clean(event.target.value) || null })}
        />
      </div>
      <div className="rounded-lg bg-slate-50 p-3 text-xs text-slate-700">
        <p className="font-semibold text-slate-800">A link in a LinkedIn post becomes:</p>
        <p className="mt-1 font-mono break-all">
          {tracking.campaign.trim()
            ? applyLinkTracking(EXAMPLE, tracking, 'LinkedIn')
            : `${EXAMPLE} (no campaign: unchanged)`}
        </p>
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending || campaignMissing}>
          {save.isPending ? (
            <Spinner className="size-4 text-white" />
          ) : (
            <Save className="size-4" aria-hidden="true" />
          )}
          Save Link Tracking
        </Button>
      </div>
    </form>
  );
}

/** docs/product.md#link-tracking: the organization's default UTM parameters (org:manage). */
export function LinkTrackingCard({ orgId }: { orgId: string }) {
  const headingId = useId();
  const settings = useLinkTrackingSettings(orgId);
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Link tracking
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        UTM parameters Herald adds to the links of a post when it publishes, so your analytics tool
        can tell which network and campaign brought a visit.
      </p>
      {settings.isPending ? (
        <LoadingIndicator label="Loading link tracking" className="py-6" />
      ) : settings.isError ? (
        <p className="mt-3 text-sm text-red-700">Failed to load link tracking.</p>
      ) : (
        <LinkTrackingForm
          orgId={orgId}
          saved={
            settings.data ?? {
              enabledByDefault: false,
              tracking: DEFAULT_LINK_TRACKING,
              shortLinks: false,
            }
          }
        />
      )}
    </section>
  );
}
