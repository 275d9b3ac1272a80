/** One account on the reference PDS, with an app password made for Herald. */
export interface TestnetAccount {
  did: string;
  handle: string;
  password: string;
  appPassword: string;
  /** A session of the account's own (its main password), for setting up what a test needs. */
  accessJwt: string;
}

export interface Testnet {
  /** The PDS, as `http://localhost:{port}`. */
  pdsUrl: string;
  /** The PLC directory that holds the accounts' did:plc documents. */
  plcUrl: string;
  /** A new account `{name}.test`; `privileged` makes its app password reach direct messages. */
  createAccount(name?: string, opts?: { privileged?: boolean }): Promise<TestnetAccount>;
  /** A POST procedure on the PDS, answered as JSON (throws on a refusal). */
  xrpc(method: string, opts?: { body?: unknown; token?: string }): Promise<unknown>;
  close(): Promise<void>;
}

/** Starts a PDS and a PLC directory on free local ports (about 0.1 s). */
export function startTestnet(): Promise<Testnet>;
