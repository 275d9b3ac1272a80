import { Save } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/form-field';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import { useMe } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { useOrganization, useUpdateOrganization } from '@/lib/organization';
import { roleLabel } from '@/lib/role-label';
import { loadTimeZones, timeZoneOptions } from '@/lib/time-zone';
import { toast, toastError } from '@/lib/toast';
import { useOrganizationRoles } from '../api/roles';
import { OwnershipSection } from './ownership-section';

export const ORG_ZONE_SAVED = 'Organization time zone saved.';
export const ORG_ZONE_NONE = 'None: each member sees their own time zone';
export const ORG_ZONE_HINT =
  'When set, every member sees and schedules times in this zone, whatever their own, and the posting queue and analytics days follow it. None: each member uses the time zone of their profile.';
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
        label="Organization time zone"
        value={zone}
        onChange={(event) => setZone(event.target.value)}
        hint={ORG_ZONE_HINT}
      >
        <option value="">{ORG_ZONE_NONE}</option>
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

export const APPROVAL_ON = 'Posts now need approval before they are scheduled.';
export const APPROVAL_OFF = 'Posts no longer need approval.';
export const APPROVAL_SAVE_FAILED = 'Failed to save the approval setting. Please try again.';

/** docs/product.md#approvals: the switch, saved as soon as it is flipped. */
function ApprovalSwitch({ orgId, on }: { orgId: string; on: boolean }) {
  const update = useUpdateOrganization(orgId);
  const hintId = useId();
  return (
    <div className="mt-6 flex items-start justify-between gap-4 border-t border-slate-200 pt-5">
      <div>
        <p id={`${hintId}-label`} className="text-sm font-medium text-slate-900">
          Posts need approval before they are scheduled
        </p>
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          Members without the Approve Posts permission submit their posts; an approver schedules or
          rejects them on the Approvals page.
        </p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-labelledby={`${hintId}-label`}
        aria-describedby={hintId}
        disabled={update.isPending}
        onClick={() =>
          update.mutate(
            { requirePostApproval: !on },
            {
              onSuccess: () => toast.success(on ? APPROVAL_OFF : APPROVAL_ON),
              onError: (error) => toastError(error, APPROVAL_SAVE_FAILED),
            },
          )
        }
        className={cn(
          'relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
          'disabled:cursor-not-allowed disabled:opacity-60',
          on ? 'bg-indigo-600' : 'bg-slate-300',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'inline-block size-5 rounded-full bg-white shadow transition-transform',
            on ? 'translate-x-6' : 'translate-x-1',
          )}
        />
      </button>
    </div>
  );
}

export const APPROVAL_ROLES_SAVED = 'Approval roles saved.';
export const APPROVAL_ROLES_SAVE_FAILED = 'Failed to save the approval roles. Please try again.';

/**
 * docs/product.md#approvals: the roles whose members need approval, saved as soon as a box is
 * ticked. None ticked: every member without Approve Posts. The Admin role is left out: it always
 * holds Approve Posts, so its members never submit.
 */
function ApprovalRoles({ orgId, chosen }: { orgId: string; chosen: string[] }) {
  const roles = useOrganizationRoles(orgId);
  const update = useUpdateOrganization(orgId);
  const hintId = useId();
  const offered = (roles.data ?? []).filter((role) => !role.isAdmin);
  const toggle = (roleId: string) => {
    const next = chosen.includes(roleId)
      ? chosen.filter((id) => id !== roleId)
      : [...chosen, roleId];
    update.mutate(
      { postApprovalRoleIds: next },
      {
        onSuccess: () => toast.success(APPROVAL_ROLES_SAVED),
        onError: (error) => toastError(error, APPROVAL_ROLES_SAVE_FAILED),
      },
    );
  };
  return (
    <fieldset className="mt-4" aria-describedby={hintId}>
      <legend className="text-sm font-medium text-slate-900">Only for these roles</legend>
      <p id={hintId} className="mt-1 text-sm text-slate-600">
        {chosen.length === 0
          ? 'None chosen: every member without the Approve Posts permission submits.'
          : 'Members of other roles schedule their posts directly.'}
      </p>
      {roles.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          Could not load the roles.
        </p>
      ) : roles.data ? (
        <ul className="mt-3 grid gap-2 sm:grid-cols-2">
          {offered.map((role) => (
            <li key={role.id}>
              <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-slate-200 px-3 py-2 text-sm text-slate-800 hover:bg-slate-50">
                <input
                  type="checkbox"
                  className="size-4 accent-indigo-600"
                  checked={chosen.includes(role.id)}
                  disabled={update.isPending}
                  onChange={() => toggle(role.id)}
                />
                {roleLabel(role.name)}
              </label>
            </li>
          ))}
        </ul>
      ) : (
        <LoadingIndicator label="Loading the roles" className="py-3" />
      )}
    </fieldset>
  );
}

/** The organization's own settings, for those who may manage it (org:manage). */
export function OrganizationCard({ orgId, orgName }: { orgId: string; orgName: string }) {
  const organization = useOrganization(orgId);
  const me = useMe();
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
        <>
          <ZoneForm
            key={organization.data.defaultTimeZone ?? ''}
            orgId={orgId}
            saved={organization.data.defaultTimeZone ?? ''}
          />
          <ApprovalSwitch orgId={orgId} on={organization.data.requirePostApproval} />
          {organization.data.requirePostApproval ? (
            <ApprovalRoles orgId={orgId} chosen={organization.data.postApprovalRoleIds} />
          ) : null}
          {me.data ? (
            <OwnershipSection
              orgId={orgId}
              orgName={orgName}
              ownerUserId={organization.data.ownerUserId}
              myUserId={me.data.user.id}
            />
          ) : null}
        </>
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
