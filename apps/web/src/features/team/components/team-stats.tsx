import type { Member, Role } from '@herald/contract';
import { Mail, ShieldCheck, UserCheck, Users, type LucideIcon } from 'lucide-react';

function StatCard({
  label,
  value,
  icon: Icon,
}: {
  label: string;
  value: number;
  icon: LucideIcon;
}) {
  return (
    <div className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <span className="grid size-11 place-items-center rounded-xl bg-indigo-50 text-indigo-700">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <dl>
        <dt className="text-sm text-slate-600">{label}</dt>
        <dd className="text-2xl font-bold text-slate-900">{value}</dd>
      </dl>
    </div>
  );
}

/**
 * The four counts of docs/product.md#team, from the loaded team. Invitations (PENDING) are not
 * members yet: they count apart.
 */
export function TeamStats({
  members,
  totalCount,
  roles,
}: {
  members: Member[];
  totalCount: number;
  roles: Role[];
}) {
  const count = (status: Member['status']) => members.filter((m) => m.status === status).length;
  return (
    <section aria-label="Team statistics" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard label="Total Members" value={totalCount - count('PENDING')} icon={Users} />
      <StatCard label="Active Members" value={count('ACTIVE')} icon={UserCheck} />
      <StatCard label="Pending Invites" value={count('PENDING')} icon={Mail} />
      <StatCard label="Total Roles" value={roles.length} icon={ShieldCheck} />
    </section>
  );
}

/** "3 members · 1 invited": members and pending invitations, counted apart. */
export function teamSummary(members: Member[], totalCount: number): string {
  const invited = members.filter((m) => m.status === 'PENDING').length;
  const people = totalCount - invited;
  return `${people} member${people === 1 ? '' : 's'} · ${invited} invited`;
}
