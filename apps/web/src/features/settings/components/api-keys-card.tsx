import { PERMISSIONS, type ApiKey, type PermissionName } from '@herald/contract';
import { Copy, KeyRound, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextField } from '@/components/ui/form-field';
import { RelativeTime } from '@/components/ui/relative-time';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { API_BASE } from '@/lib/api-client';
import { toast, toastError } from '@/lib/toast';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';

export const API_KEY_COPIED = 'API key copied.';
export const API_KEY_REVOKED = 'API key revoked. Requests made with it are refused from now on.';

const labelOf = (name: string) => PERMISSIONS.find((p) => p.name === name)?.label ?? name;

/** The end of the chosen day where the person is: a key "expiring on" a date works all that day. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59`).toISOString();

/** The new key, shown once, with its Copy button and the warning that it will not come back. */
function NewKey({ secret, name, onDone }: { secret: string; name: string; onDone: () => void }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success(API_KEY_COPIED);
    } catch {
      // No clipboard access (permissions, insecure context): leave the key selected instead.
      input.current?.select();
      toast.error('Could not copy the key. It is selected: copy it with your keyboard.');
    }
  };
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-4">
      <label htmlFor={inputId} className="block text-sm font-semibold text-slate-900">
        Your new key “{name}”
      </label>
      <p className="mt-1 text-sm text-amber-900">
        Copy it now and keep it somewhere safe: it will not be shown again. Anyone holding it can
        act for this organization with the permissions you chose.
      </p>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
        <input
          id={inputId}
          ref={input}
          readOnly
          value={secret}
          onFocus={(event) => event.target.select()}
          className="block w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs text-slate-800"
        />
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" onClick={() => void copy()}>
            <Copy className="size-4" aria-hidden="true" />
            Copy
          </Button>
          <Button variant="ghost" size="sm" onClick={onDone}>
            Done
          </Button>
        </div>
      </div>
    </div>
  );
}

function CreateKeyForm({
  orgId,
  holds,
  onCreated,
}: {
  orgId: string;
  holds: readonly string[];
  onCreated: (secret: string, name: string) => void;
}) {
  const create = useCreateApiKey(orgId);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<PermissionName[]>([]);
  const [expires, setExpires] = useState('');
  const [error, setError] = useState<string | null>(null);
  const legendId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError('Give the key a name, such as the tool that will use it.');
    if (chosen.length === 0) return setError('Choose at least one permission.');
    setError(null);
    create.mutate(
      { name: name.trim(), permissions: chosen, expiresAt: expires ? endOfDay(expires) : null },
      {
        onSuccess: (data) => {
          onCreated(data.key, data.apiKey.name);
          setName('');
          setChosen([]);
          setExpires('');
        },
        onError: (err) =>
          setError(errorMessage(err, 'Failed to create the key. Please try again.')),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <TextField
        label="Key name"
        value={name}
        maxLength={80}
        placeholder="Zapier, n8n, our website…"
        autoComplete="off"
        onChange={(event) => setName(event.target.value)}
      />
      <fieldset aria-labelledby={legendId}>
        <legend id={legendId} className="text-sm font-medium text-slate-800">
          Permissions
        </legend>
        <p className="text-xs text-slate-500">A key gets at most the permissions you hold.</p>
        <div className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-2">
          {PERMISSIONS.filter((p) => holds.includes(p.name)).map((permission) => (
            <label
              key={permission.name}
              className="flex items-center gap-2 rounded-md px-1 py-1 text-sm text-slate-800"
            >
              <input
                type="checkbox"
                className="size-4 rounded border-slate-300 accent-indigo-600"
                checked={chosen.includes(permission.name)}
                onChange={(event) =>
                  setChosen((now) =>
                    event.target.checked
                      ? PERMISSIONS.map((p) => p.name).filter(
                          (n) => n === permission.name || now.includes(n),
                        )
                      : now.filter((n) => n !== permission.name),
                  )
                }
              />
              {permission.label}
            </label>
          ))}
        </div>
      </fieldset>
      <TextField
        label="Expires on (optional)"
        type="date"
        value={expires}
        onChange={(event) => setExpires(event.target.value)}
        hint="Without a date the key works until it is revoked."
        className="sm:max-w-xs"
      />
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? (
            <Spinner className="size-4 text-white" />
          ) : (
            <KeyRound className="size-4" aria-hidden="true" />
          )}
          Create Key
        </Button>
      </div>
    </form>
  );
}

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  const expired = apiKey.expiresAt !== null && new Date(apiKey.expiresAt) <= new Date();
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:gap-4">
      <div className="min-w-0 flex-1">
        <p className="font-medium text-slate-900">
          {apiKey.name} <span className="font-mono text-xs text-slate-500">{apiKey.prefix}_…</span>
          {expired && (
            <span className="ml-2 rounded bg-red-50 px-1.5 py-0.5 text-xs text-red-700">
              Expired
            </span>
          )}
        </p>
        <p className="mt-0.5 text-sm text-slate-600">
          {apiKey.permissions.map(labelOf).join(', ')}
        </p>
        <p className="mt-0.5 text-xs text-slate-500">
          Created by {apiKey.createdBy.email ?? 'a former member'}{' '}
          <RelativeTime iso={apiKey.createdAt} /> · Last used{' '}
          {apiKey.lastUsedAt ? <RelativeTime iso={apiKey.lastUsedAt} /> : 'never'} ·{' '}
          {apiKey.expiresAt ? (
            <>
              {expired ? 'Expired' : 'Expires'} <RelativeTime iso={apiKey.expiresAt} />
            </>
          ) : (
            'No expiry'
          )}
        </p>
      </div>
      <Button
        variant="ghost"
        size="sm"
        onClick={onRevoke}
        aria-label={`Revoke ${apiKey.name}`}
        className="self-start"
      >
        <Trash2 className="size-4" aria-hidden="true" />
        Revoke
      </Button>
    </li>
  );
}

/** The MCP endpoint's full address (docs/api.md#mcp-ai-agents-claude-and-others). */
const MCP_URL = new URL(`${API_BASE}/mcp`, window.location.origin).href;

/**
 * docs/api.md (org:manage): keys for the public API. A key's secret is shown once, when it is
 * made; the list shows its prefix, permissions, creator, last use and expiry.
 */
export function ApiKeysCard({ orgId, holds }: { orgId: string; holds: readonly string[] }) {
  const headingId = useId();
  const keys = useApiKeys(orgId);
  const revoke = useRevokeApiKey(orgId);
  const [created, setCreated] = useState<{ secret: string; name: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        API keys
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Let your own tools and automations (Zapier, n8n, scripts) use Herald’s API for this
        organization: send{' '}
        <span className="font-mono text-xs">Authorization: Bearer &lt;key&gt;</span>.
      </p>
      <p className="mt-1 text-sm text-slate-600">
        This organization’s id, for the API’s addresses:{' '}
        <span className="block font-mono text-xs break-all text-slate-800 sm:inline">{orgId}</span>
      </p>
      <p className="mt-1 text-sm text-slate-600">
        AI agents (Claude and other MCP clients) connect to{' '}
        <span className="block font-mono text-xs break-all text-slate-800 sm:inline">
          {MCP_URL}
        </span>{' '}
        with the same header; the key’s permissions decide which tools they get.
      </p>
      <div className="mt-4 flex flex-col gap-4">
        {created && (
          <NewKey secret={created.secret} name={created.name} onDone={() => setCreated(null)} />
        )}
        {keys.isPending ? (
          <LoadingIndicator label="Loading the API keys" className="py-6" />
        ) : keys.isError ? (
          <Alert>{errorMessage(keys.error, 'Failed to load the API keys.')}</Alert>
        ) : keys.data.length === 0 ? (
          <p className="text-sm text-slate-500">No API keys yet.</p>
        ) : (
          <ul aria-label="API keys" className="divide-y divide-slate-100">
            {keys.data.map((apiKey) => (
              <KeyRow key={apiKey.id} apiKey={apiKey} onRevoke={() => setRevoking(apiKey)} />
            ))}
          </ul>
        )}
        <div className="border-t border-slate-100 pt-4">
          <h3 className="mb-3 text-sm font-semibold text-slate-900">Create a key</h3>
          <CreateKeyForm
            orgId={orgId}
            holds={holds}
            onCreated={(secret, name) => setCreated({ secret, name })}
          />
        </div>
      </div>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) setRevoking(null);
        }}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        message="Every tool using this key stops working at once. This cannot be undone: make a new key to reconnect them."
        confirmLabel="Revoke Key"
        isPending={revoke.isPending}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              setRevoking(null);
              toast.success(API_KEY_REVOKED);
            },
            onError: (err) => toastError(err, 'Failed to revoke the key. Please try again.'),
          })
        }
      />
    </section>
  );
}
