// The AT Protocol reference servers for Herald's Bluesky tests: the PDS (accounts, repositories,
// blobs, sessions) and the PLC directory (did:plc documents), from @atproto/dev-env, in-process.
// Data lives in SQLite and temporary folders, so nothing else needs to run.
import { TestNetworkNoAppView } from '@atproto/dev-env';

async function xrpc(base, method, { body, token } = {}) {
  const res = await fetch(`${base}/xrpc/${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body ?? {}),
  });
  const answer = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

export async function startTestnet() {
  const network = await TestNetworkNoAppView.create({});
  const pdsUrl = network.pds.url;
  const plcUrl = network.plc.url;
  let accounts = 0;
  return {
    pdsUrl,
    plcUrl,
    async createAccount(name = `user${++accounts}`, opts = {}) {
      const handle = `${name}.test`;
      const password = `password-${name}`;
      const created = await xrpc(pdsUrl, 'com.atproto.server.createAccount', {
        body: { email: `${name}@example.test`, handle, password },
      });
      const appPassword = await xrpc(pdsUrl, 'com.atproto.server.createAppPassword', {
        token: created.accessJwt,
        body: { name: 'Herald', privileged: Boolean(opts.privileged) },
      });
      return {
        did: created.did,
        handle: created.handle,
        password,
        appPassword: appPassword.password,
        accessJwt: created.accessJwt,
      };
    },
    xrpc: (method, opts) => xrpc(pdsUrl, method, opts),
    close: () => network.close(),
  };
}
