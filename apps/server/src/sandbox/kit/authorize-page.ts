import { escapeHtml } from './html.js';
/**
 * The consent page every network sandbox shows in place of the real network's: the person names
 * the sandbox account to sign in as (or picks one their organizations connected before) and
 * approves or denies. A plain form, so tests and people can use it the same way. Posting it
 * answers the network's redirect.
 */
export function renderSandboxAuthorizePage(opts: {
  network: string;
  action: string;
  /** Hidden fields echoed back (client_id, redirect_uri, state, code_challenge…). */
  hidden: Record<string, string>;
  knownAccounts: string[];
  accountLabel?: string;
  extraFields?: string;
}): string {
  const hidden = Object.entries(opts.hidden)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  const options = opts.knownAccounts
    .map((a) => `<option value="${escapeHtml(a)}"></option>`)
    .join('');
  const label = opts.accountLabel ?? 'Account name';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.network)} sandbox — authorize Herald</title>
<style>
body{font-family:system-ui,sans-serif;background:#f1f5f9;color:#0f172a;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;border:1px solid #cbd5e1;border-radius:1rem;padding:2rem;max-width:26rem;width:calc(100% - 2rem)}
h1{font-size:1.2rem;margin:0 0 .3rem} p{color:#334155;font-size:.92rem}
label{display:block;font-weight:600;margin:1rem 0 .3rem} input[type=text]{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #64748b;border-radius:.5rem;font-size:1rem}
.row{display:flex;gap:.6rem;margin-top:1.3rem} button{flex:1;padding:.65rem;border-radius:.5rem;font-weight:600;font-size:1rem;cursor:pointer}
.approve{background:#0f766e;color:#fff;border:0} .deny{background:#fff;border:1px solid #64748b;color:#0f172a}
</style></head>
<body><main>
<h1>${escapeHtml(opts.network)} sandbox</h1>
<p>This stands in for ${escapeHtml(opts.network)}'s own sign-in while Herald runs without its credentials. Nothing is sent to ${escapeHtml(opts.network)}.</p>
<form method="post" action="${escapeHtml(opts.action)}">
${hidden}
<label for="account">${escapeHtml(label)}</label>
<input id="account" name="account" type="text" list="known" required value="${escapeHtml(opts.knownAccounts[0] ?? 'sandbox_user')}">
<datalist id="known">${options}</datalist>
${opts.extraFields ?? ''}
<div class="row"><button class="approve" type="submit" name="decision" value="approve">Approve</button><button class="deny" type="submit" name="decision" value="deny" formnovalidate>Deny</button></div>
</form>
</main></body></html>`;
}
