import { Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/form-field';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import { useOrganization, useUpdateOrganization } from '@/lib/organization';
import { loadTimeZones, timeZoneOptions } from '@/lib/time-zone';
import { toast, toastError } from '@/lib/toast';

export const ORG_ZONE_SAVED = 'Organization time zone saved.';
export const ORG_ZONE_SAVE_FAILED = 'Failed to save the organization time zone. Please try again.';

function ZoneForm({ orgId, saved }: { orgId: string; saved: string }) {
  const update = useUpdateOrganization(orgId);
  const [zones] = useState(loadTimeZones);
  const [zone, setZone] = useState(saved);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { defaultTimeZone: zone || null },
      {
        onSuccess: () => toast.success(ORG_ZONE_SAVED),
        onError: (error) => toastError(error, ORG_ZONE_SAVE_FAILED),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 grid gap-4 sm:grid-cols-2">
      <SelectField
        label="Default time zone"
        value={zone}
        onChange={(event) => setZone(event.target.value)}
        hint="Members who have not chosen a time zone in their profile see times in this one."
      >
        <option value="">None (each member’s browser zone)</option>
        <TimeZoneOptions zones={timeZoneOptions(zones, saved)} />
      </SelectField>
      <div className="flex items-end sm:justify-end">
        <Button type="submit" disabled={update.isPending || zone === saved}>
          {update.isPending ? (
            <Spinner className="size-4 text-white" />
          ) : (
            <Save className="size-4" aria-hidden="true" />
          )}
          Save Organization
        </Button>
      </div>
    </form>
  );
}

/** The organization's own settings, for those who may manage it (org:manage). */
export function OrganizationCard({ orgId, orgName }: { orgId: string; orgName: string }) {
  const organization = useOrganization(orgId);
  return (
    <section
      aria-labelledby="organization-heading"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="organization-heading" className="text-lg font-semibold text-slate-900">
        Organization
      </h2>
      <p className="mt-1 text-sm text-slate-600">Settings {orgName} shares with its members.</p>
      {organization.data ? (
        <ZoneForm
          key={organization.data.defaultTimeZone ?? ''}
          orgId={orgId}
          saved={organization.data.defaultTimeZone ?? ''}
        />
      ) : organization.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          Could not load the organization’s settings.
        </p>
      ) : (
        <LoadingIndicator label="Loading the organization" className="py-6" />
      )}
    </section>
  );
}
