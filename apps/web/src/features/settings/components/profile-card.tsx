import type { ApplicableTimeZone, User } from '@herald/contract';
import { Lock, Save } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import { loadTimeZones, timeZoneOptions } from '@/lib/time-zone';
import { toast, toastError } from '@/lib/toast';
import { useTimeZoneRule } from '@/lib/use-time-zone';
import { useUpdateProfile } from '../api/profile';

export const FILL_ALL_FIELDS = 'Please fill all fields.';
export const SETTINGS_SAVED = 'Settings saved successfully!';
export const SETTINGS_SAVE_FAILED = 'Failed to save settings. Please try again.';
export const TIME_ZONES_UNAVAILABLE = 'Could not load timezone list.';

/** What the member's own zone is used for, given the rule (the organization's zone wins). */
function profileZoneHint(rule: ApplicableTimeZone): string {
  return rule.source === 'organization'
    ? `Your organization's time zone (${rule.zone}) is used while it is set; this one is used when it has none.`
    : 'Posts and dates are shown in this time zone (your organization has none set).';
}

/** docs/product.md#settings: who you are, and the name and time zone others see. */
export function ProfileCard({ user }: { user: User }) {
  const update = useUpdateProfile(user.id);
  const fieldIds = useId();
  const [zones] = useState(loadTimeZones);
  const [displayName, setDisplayName] = useState(user.displayName ?? '');
  const [timezone, setTimezone] = useState(user.timezone ?? '');
  const shownName = user.displayName?.trim() || user.email;
  const rule = useTimeZoneRule();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const name = displayName.trim();
    // docs/product.md#organization-and-settings-rules: display name (trimmed), time zone and user id must all be present.
    if (!name || !timezone || !user.id) {
      toast.error(FILL_ALL_FIELDS, { id: 'profile-validation' });
      return;
    }
    update.mutate(
      { displayName: name, timezone },
      {
        onSuccess: () => {
          setDisplayName(name);
          toast.success(SETTINGS_SAVED);
        },
        onError: (error) => toastError(error, SETTINGS_SAVE_FAILED),
      },
    );
  };

  return (
    <section
      aria-labelledby="profile-heading"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="profile-heading" className="text-lg font-semibold text-slate-900">
        Profile
      </h2>
      <div className="mt-4 flex items-center gap-4">
        <Avatar name={shownName} url={user.avatarUrl} className="size-16 text-lg" />
        <div className="min-w-0">
          <p className="truncate font-semibold text-slate-900">{shownName}</p>
          <p className="truncate text-sm text-slate-600">{user.email}</p>
        </div>
      </div>
      <form onSubmit={onSubmit} noValidate className="mt-6 grid gap-4 sm:grid-cols-2">
        <TextField
          label="Display Name"
          value={displayName}
          onChange={(event) => setDisplayName(event.target.value)}
          autoComplete="name"
          maxLength={100}
        />
        <div role="group" aria-labelledby={`${fieldIds}-email`}>
          <p id={`${fieldIds}-email`} className="block text-sm font-medium text-slate-800">
            Email
          </p>
          <p className="mt-1 flex min-w-0 items-center gap-2 py-2 text-sm text-slate-900">
            <Lock className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
            <span className="truncate">{user.email}</span>
          </p>
          <p className="mt-1 text-xs text-slate-600">
            Your email comes from your sign-in account and cannot be changed here.
          </p>
        </div>
        <SelectField
          label="Timezone"
          value={timezone}
          onChange={(event) => setTimezone(event.target.value)}
          error={zones ? null : TIME_ZONES_UNAVAILABLE}
          hint={profileZoneHint(rule)}
        >
          <option value="">Select a timezone</option>
          <TimeZoneOptions zones={timeZoneOptions(zones, user.timezone ?? '')} />
        </SelectField>
        <div className="flex items-end sm:justify-end">
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? (
              <Spinner className="size-4 text-white" />
            ) : (
              <Save className="size-4" aria-hidden="true" />
            )}
            Save Profile
          </Button>
        </div>
      </form>
    </section>
  );
}
