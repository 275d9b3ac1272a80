const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The built-in development provider's sign-in page: a plain HTML form, so that it works without
 * JavaScript and any test (or person) can fill it in.
 */
export function renderSignInPage(opts: {
  action: string;
  email?: string;
  name?: string;
  error?: string;
}): string {
  const error = opts.error
    ? `<p role="alert" style="color:#b91c1c;background:#fef2f2;border:1px solid #fecaca;padding:.6rem .8rem;border-radius:.5rem">${escapeHtml(opts.error)}</p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in — Herald development identity provider</title>
<style>
  body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f8fafc;color:#0f172a;display:grid;place-items:center;min-height:100vh;margin:0}
  main{background:#fff;border:1px solid #e2e8f0;border-radius:1rem;padding:2rem;max-width:24rem;width:calc(100% - 2rem);box-shadow:0 1px 3px rgba(0,0,0,.06)}
  h1{font-size:1.25rem;margin:0 0 .25rem} p.note{color:#475569;font-size:.9rem;margin:0 0 1.25rem}
  label{display:block;font-weight:600;font-size:.9rem;margin:.9rem 0 .3rem}
  input{width:100%;box-sizing:border-box;padding:.6rem .7rem;border:1px solid #94a3b8;border-radius:.5rem;font-size:1rem}
  button{margin-top:1.4rem;width:100%;padding:.7rem;border:0;border-radius:.5rem;background:#4f46e5;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}
  button:focus-visible,input:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}
</style>
</head>
<body>
<main>
  <h1>Development sign-in</h1>
  <p class="note">This identity provider is built into Herald for local use. Enter any email address to sign in as that person; the first sign-in creates the account.</p>
  ${error}
  <form method="post" action="${escapeHtml(opts.action)}">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(opts.email ?? '')}">
    <label for="name">Name</label>
    <input id="name" name="name" type="text" autocomplete="name" value="${escapeHtml(opts.name ?? '')}">
    <button type="submit">Sign in</button>
  </form>
</main>
</body>
</html>`;
}
