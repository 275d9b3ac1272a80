import { useState } from 'react';

/**
 * Signing in on the account's own server (Bluesky's OAuth), offered beside the app password
 * where Herald has a public https address: the person names their account (a handle or DID) or
 * their server's address, and the browser goes to that server's sign-in page. No password is
 * typed in Herald.
 */
export function SignInPageForm({
  platformName,
  initialIdentifier,
  isLeaving,
  onSubmit,
}: {
  platformName: string;
  initialIdentifier: string;
  isLeaving: boolean;
  onSubmit: (typed: string) => void;
}) {
  const [typed, setTyped] = useState(initialIdentifier);
  const ready = typed.trim() !== '';
  return (
    <form
      aria-label={`Sign in with ${platformName}`}
      className="mt-3 flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) onSubmit(typed.trim());
      }}
    >
      <p className="text-sm text-slate-700">
        Sign in on your {platformName} server and allow Herald there: no password is typed here.
        Type your handle, or your server&rsquo;s address (such as https://bsky.social) to choose the
        account on its page.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <label className="flex min-w-0 flex-col gap-1 text-sm sm:flex-1">
          <span className="font-medium text-slate-700">Handle or server</span>
          <input
            className="rounded-lg border border-slate-300 bg-white px-3 py-2"
            placeholder="alice.bsky.social"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={typed}
            autoFocus
            onChange={(event) => setTyped(event.target.value)}
          />
        </label>
        <button
          type="submit"
          className="rounded-lg bg-[#0085FF] px-4 py-2 text-sm font-semibold text-white disabled:opacity-50"
          disabled={!ready || isLeaving}
        >
          {isLeaving ? 'Opening…' : `Sign in with ${platformName}`}
        </button>
      </div>
    </form>
  );
}
