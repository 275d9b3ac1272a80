import type { AuditEntry } from '@herald/contract';
import dayjs from 'dayjs';
import { useState } from 'react';
import { LoadError } from '@/components/ui/load-error';
import { Pagination } from '@/components/ui/pagination';
import { RelativeTime } from '@/components/ui/relative-time';
import { LoadingIndicator } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { AUDIT_PAGE_SIZE, useAuditLog } from '../api/dashboard';

export const AUDIT_LOAD_FAILED = 'Failed to fetch the audit log.';

const verbs: Record<AuditEntry['action'], string> = {
  'user.update': 'updated the user',
  'plan.create': 'created the plan',
  'plan.update': 'updated the plan',
  'platform.create': 'created the platform',
  'platform.activate': 'activated the platform',
  'platform.deactivate': 'deactivated the platform',
  'operator.grant': 'made an operator of',
  'operator.revoke': 'took operator rights from',
  'approval_link.create': 'sent',
  'approval_link.revoke': 'revoked',
  'approval_link.decide': 'decided through',
  'api_key.create': 'created',
  'api_key.revoke': 'revoked',
};

/** "postsPerDay" → "posts per day". */
const fieldLabel = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'string') return `“${value}”`;
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** What changed, field by field: "price: 99 → 120". A creation lists what it was made with. */
function Changes({ entry }: { entry: AuditEntry }) {
  const after = entry.after ?? {};
  const keys = Object.keys(after);
  if (keys.length === 0) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-xs text-slate-600">
      {keys.map((key) => (
        <li key={key} className="break-all">
          <span className="font-medium text-slate-700">{fieldLabel(key)}</span>:{' '}
          {entry.before ? `${show(entry.before[key])} → ${show(after[key])}` : show(after[key])}
        </li>
      ))}
    </ul>
  );
}

/** The operators' actions, newest first, readable on the admin dashboard. */
export function AuditLog() {
  const [page, setPage] = useState(1);
  const log = useAuditLog(page);

  if (log.isPending) return <LoadingIndicator label="Loading the audit log" className="py-8" />;
  if (log.isError) {
    return (
      <LoadError
        message={errorMessage(log.error, AUDIT_LOAD_FAILED)}
        onRetry={() => void log.refetch()}
      />
    );
  }
  if (log.data.entries.length === 0) {
    return <p className="py-6 text-center text-sm text-slate-600">No operator actions yet.</p>;
  }
  return (
    <div className="flex flex-col gap-4">
      <ol aria-label="Operator actions" className="divide-y divide-slate-100">
        {log.data.entries.map((entry) => (
          <li key={entry.id} className="py-3 text-sm">
            <p className="text-slate-800">
              <span className="font-semibold">{entry.actor?.email ?? 'The command line'}</span>{' '}
              {entry.actor?.apiKeyId && (
                <span className="text-slate-600">
                  (through API key <span className="font-mono text-xs">{entry.actor.apiKeyId}</span>
                  ){' '}
                </span>
              )}
              {verbs[entry.action]} <span className="font-semibold">{entry.target.label}</span>
            </p>
            <Changes entry={entry} />
            <p className="mt-1 text-xs text-slate-500">
              {dayjs(entry.createdAt).format('MMM D, YYYY h:mm A')} ·{' '}
              <RelativeTime iso={entry.createdAt} />
            </p>
          </li>
        ))}
      </ol>
      <Pagination
        label="Audit log pages"
        page={page}
        pageSize={AUDIT_PAGE_SIZE}
        totalCount={log.data.totalCount}
        onPageChange={setPage}
      />
    </div>
  );
}
