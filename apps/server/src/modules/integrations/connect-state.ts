import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What the `state` of a network sign-in carries: who started it, for which organization, until when. */
export interface ConnectState {
  userId: string;
  organizationId: string;
  platform: string;
  /** The connect kind, for networks with one developer app per kind (LinkedIn). */
  kind?: string;
  /** The server signed in on, for networks made of many servers (Mastodon). */
  instance?: string;
  /**
   * Networks whose sign-in server is found per account (Bluesky): the authorization server the
   * request was pushed to, which must be the `iss` the browser comes back with.
   */
  issuer?: string;
  /** The account the person named before signing in (Bluesky's DID), when they named one. */
  account?: string;
  expiresAt: number;
  nonce: string;
}

const CONNECT_STATE_TTL_MS = 10 * 60 * 1000;

/**
 * Signed, expiring state for the OAuth round trip. The PKCE verifier is derived from the same
 * secret and nonce, so nothing has to be stored between the redirect and the callback.
 */
export class ConnectStates {
  constructor(private readonly secret: string) {}

  private sign(payload: string) {
    return createHmac('sha256', this.secret).update(`state:${payload}`).digest('base64url');
  }

  issue(
    input: Omit<ConnectState, 'expiresAt' | 'nonce'>,
    now = Date.now(),
  ): { state: string; verifier: string; challenge: string; nonce: string } {
    const body: ConnectState = {
      ...input,
      expiresAt: now + CONNECT_STATE_TTL_MS,
      nonce: randomBytes(12).toString('base64url'),
    };
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    const verifier = this.verifierFor(body.nonce);
    return {
      state: `${payload}.${this.sign(payload)}`,
      verifier,
      challenge: createHash('sha256').update(verifier).digest('base64url'),
      nonce: body.nonce,
    };
  }

  /** The state's content when its signature holds and it has not expired; null otherwise. */
  read(state: string | undefined, now = Date.now()): ConnectState | null {
    if (!state) return null;
    const [payload, signature] = state.split('.');
    if (!payload || !signature) return null;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ConnectState;
      return body.expiresAt > now ? body : null;
    } catch {
      return null;
    }
  }

  verifierFor(nonce: string) {
    return createHmac('sha256', this.secret).update(`pkce:${nonce}`).digest('base64url');
  }

  /**
   * The secret a sign-in's proof-of-possession key is made from (Bluesky's DPoP key), derived as
   * the verifier is: the start and the callback make the same key without storing it. Once the
   * account is connected, the key itself is kept encrypted with its tokens.
   */
  keySeedFor(nonce: string) {
    return createHmac('sha256', this.secret).update(`dpop:${nonce}`).digest('base64url');
  }
}
