import { useState } from 'react';

/**
 * Connecting a network that has no sign-in page for apps (Bluesky): the account's handle and an
 * app password created for Herald in the network's settings. The password goes to the network
 * once, to sign in, and is not kept.
 */
export function AppPasswordForm({
  platformName,
  initialIdentifier,
  isPending,
  onSubmit,
  onCancel,
  autoFocus = true,
}: {
  platformName: string;
  initialIdentifier: string;
  /** False when another way to connect comes first and takes the focus. */
  autoFocus?: boolean;
  isPending: boolean;
  onSubmit: (identifier: string, appPassword: string) => void;
  onCancel: () => void;
}) {
  const [identifier, setIdentifier] = useState(initialIdentifier);
  const [appPassword, setAppPassword] = useState('');
  const ready = identifier.trim() !== '' && appPassword.trim() !== '';
  return (
    <form
      aria-label={`Connect ${platformName} with an app password`}
      className="mt-3 flex flex-col gap-3 rounded-xl border border-slate-200 bg-slate-50 p-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) onSubmit(identifier.trim(), appPassword.trim());
      }}
    >
      <p className="text-sm text-slate-700">
        Create an app password for Herald in {platformName} (Settings → Privacy and security → App
        passwords) and type it here with your handle. Herald signs in once and does not keep the
        password. To see and answer direct messages in the inbox, tick &ldquo;Allow access to your
        direct messages&rdquo; when you create it.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="flex min-w-0 flex-col gap-1 text-sm">
          <span className="font-medium text-slate-700">Handle</span>
          <input
            className="rounded-lg border border-slate-300 bg-white px-3 py-2"
            placeholder="alice.bsky.social"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={identifier}
            autoFocus={autoFocus && initialIdentifier === ''}
            onChange={(event) => setIdentifier(event.target.value)}
          />
        </label>
        <label className="flex min-w-0 flex-col gap-1 text-sm">
          <span className="font-medium text-slate-700">App password</span>
          <input
            className="rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono"
            type="password"
            placeholder="xxxx-xxxx-xxxx-xxxx"
            autoComplete="off"
            value={appPassword}
            autoFocus={autoFocus && initialIdentifier !== ''}
            onChange={(event) => setAppPassword(event.target.value)}
          />
        </label>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <button
          type="submit"
          className="rounded-lg bg-slate-900 px-4 py-2 text-sm font-semibold text-white disabled:opacity-50"
          disabled={!ready || isPending}
        >
          {isPending ? 'Connecting…' : `Connect ${platformName}`}
        </button>
        <button
          type="button"
          className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-700"
          onClick={onCancel}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
