import type { FastifyInstance } from 'fastify';
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
} from 'node:crypto';
import { AppError } from '../../lib/app-error.js';
import type { SandboxContext } from '../context.js';
import { heraldReceiver } from '../kit/herald-receiver.js';
import { emuTenant } from '../kit/tenant.js';
import type { SandboxStore } from '../store.js';
import { digits } from './google.js';

/**
 * Google's side of Business Profile review notifications (docs/networks.md#google-business-profile-sandbox):
 * the account's notification setting names a Pub/Sub topic; when a review comes or changes,
 * Google publishes a notice there, and the operator's push subscription posts it to its endpoint
 * with an OpenID Connect token Google signs (RS256) for the subscription's service account and
 * audience. The emulator is both Google and Pub/Sub: it serves its signing keys as Google's JWKS
 * (`/oauth2/v3/certs`) and posts each notice to Herald's receiver, `{api}/webhooks/googlebusiness`,
 * the only endpoint a sandbox delivers to.
 *
 * The push subscription is the operator's: by default its audience is the endpoint's URL (as
 * Pub/Sub's default) and it signs as SANDBOX_PUSH_SERVICE_ACCOUNT; `POST /_emu/pubsub/subscription
 * {audience?, serviceAccountEmail?}` changes them (a subscription set up unlike Herald's settings),
 * `GET /_emu/pubsub/pushes` lists what was pushed and how Herald answered.
 */

/** The service account the sandbox's push subscription signs as, unless told otherwise. */
export const SANDBOX_PUSH_SERVICE_ACCOUNT = 'herald-push@herald-sandbox.iam.gserviceaccount.com';
const SUBSCRIPTION = 'projects/herald-sandbox/subscriptions/herald-reviews-push';
/** Google's push tokens last an hour. */
const TOKEN_SECONDS = 3600;
const MAX_LOG = 200;

interface SigningKey {
  kid: string;
  /** PKCS#8 PEM: the sandbox's own key, kept with the rest of its state. */
  privatePem: string;
}

export interface PushRecord {
  messageId: string;
  at: string;
  type: string;
  location: string;
  review: string;
  status: number | null;
  error: string | null;
}

interface SubscriptionSettings {
  audience?: string;
  serviceAccountEmail?: string;
}

export interface NotificationSetting {
  pubsubTopic: string;
  notificationTypes: string[];
}

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function createGbpPubSub(ctx: SandboxContext, store: SandboxStore) {
  let keyWork: Promise<SigningKey> | null = null;

  /** The signing key, made once and kept (every process serving the sandbox signs with it). */
  function signingKey(): Promise<SigningKey> {
    keyWork ??= (async () => {
      const kept = await store.get<SigningKey>('gbp_pubsub', 'signing-key');
      if (kept) return kept;
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const made = {
        kid: randomBytes(20).toString('hex'),
        privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      };
      await store.put('gbp_pubsub', 'signing-key', made);
      // Two processes may have made one each: the one stored last is everyone's.
      return (await store.get<SigningKey>('gbp_pubsub', 'signing-key')) ?? made;
    })().catch((err: unknown) => {
      keyWork = null;
      throw err;
    });
    return keyWork;
  }

  const endpoint = () => heraldReceiver(ctx.heraldApi, 'googlebusiness');

  async function token(subscription: SubscriptionSettings) {
    const key = await signingKey();
    const now = Math.floor(Date.now() / 1000);
    const header = b64url({ alg: 'RS256', kid: key.kid, typ: 'JWT' });
    const claims = b64url({
      aud: subscription.audience ?? endpoint(),
      azp: '108' + digits(18),
      email: subscription.serviceAccountEmail ?? SANDBOX_PUSH_SERVICE_ACCOUNT,
      email_verified: true,
      exp: now + TOKEN_SECONDS,
      iat: now,
      iss: 'https://accounts.google.com',
      sub: '108' + digits(18),
    });
    const signature = sign(
      'RSA-SHA256',
      Buffer.from(`${header}.${claims}`),
      createPrivateKey(key.privatePem),
    ).toString('base64url');
    return `${header}.${claims}.${signature}`;
  }

  let logChanges: Promise<unknown> = Promise.resolve();
  function record(push: PushRecord) {
    const next = logChanges.then(async () => {
      const log = (await store.get<{ items: PushRecord[] }>('gbp_pubsub', 'pushes'))?.items ?? [];
      await store.put('gbp_pubsub', 'pushes', { items: [...log, push].slice(-MAX_LOG) });
    });
    logChanges = next.catch(() => undefined);
    return next;
  }

  return {
    /**
     * A review came (`NEW_REVIEW`) or changed (`UPDATED_REVIEW`): when the location's account has
     * a notification setting with a topic asking for it, the notice is pushed to Herald.
     */
    async notify(account: string, type: 'NEW_REVIEW' | 'UPDATED_REVIEW', review: string) {
      const setting = await store.get<NotificationSetting>(
        'gbp_notification_setting',
        account.replace(/^accounts\//, ''),
      );
      if (!setting?.pubsubTopic || !setting.notificationTypes.includes(type)) return;
      const location = review.replace(/\/reviews\/[^/]+$/, '');
      const messageId = digits(16);
      const publishTime = new Date().toISOString();
      const subscription =
        (await store.get<SubscriptionSettings>('gbp_pubsub', 'subscription')) ?? {};
      // Google's notification, as its documentation names the fields.
      const data = Buffer.from(
        JSON.stringify({ type, locationName: location, reviewName: review }),
      ).toString('base64');
      const push: PushRecord = {
        messageId,
        at: publishTime,
        type,
        location,
        review,
        status: null,
        error: null,
      };
      try {
        const res = await ctx.deliver(endpoint(), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${await token(subscription)}`,
          },
          body: JSON.stringify({
            message: {
              attributes: {},
              data,
              messageId,
              message_id: messageId,
              publishTime,
              publish_time: publishTime,
            },
            subscription: SUBSCRIPTION,
          }),
          signal: AbortSignal.timeout(10_000),
        });
        push.status = res.status;
        await res.body?.cancel();
      } catch (err) {
        push.error = err instanceof Error ? err.message : String(err);
      }
      await record(push);
    },

    register(scope: FastifyInstance) {
      /** Google's OpenID Connect signing keys (www.googleapis.com/oauth2/v3/certs). */
      scope.get('/oauth2/v3/certs', async (_request, reply) => {
        const key = await signingKey();
        const jwk = createPublicKey(createPrivateKey(key.privatePem)).export({ format: 'jwk' });
        return reply
          .header('cache-control', 'public, max-age=3600, must-revalidate, no-transform')
          .send({ keys: [{ ...jwk, kid: key.kid, alg: 'RS256', use: 'sig' }] });
      });

      /** The push subscription as the operator set it up in Google Cloud. */
      scope.post('/_emu/pubsub/subscription', async (request) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        const settings: SubscriptionSettings = {};
        for (const field of ['audience', 'serviceAccountEmail'] as const) {
          const value = body[field];
          if (value === undefined || value === null) continue;
          if (typeof value !== 'string' || !value.trim())
            throw new AppError('BAD_REQUEST', `${field} must be a non-empty string, or left out.`);
          settings[field] = value.trim();
        }
        await store.put('gbp_pubsub', 'subscription', settings);
        return {
          audience: settings.audience ?? endpoint(),
          serviceAccountEmail: settings.serviceAccountEmail ?? SANDBOX_PUSH_SERVICE_ACCOUNT,
        };
      });

      /** What was pushed to Herald, and how it answered, oldest first. */
      scope.get('/_emu/pubsub/pushes', async (request) => {
        const tenant = emuTenant(request);
        const items = (await store.get<{ items: PushRecord[] }>('gbp_pubsub', 'pushes'))?.items;
        // Each organization sees the pushes of its own locations only.
        return {
          pushes: (items ?? []).filter((p) => tenant.owns(p.location.split('/').at(-1) ?? '')),
        };
      });
    },
  };
}

export type GbpPubSub = ReturnType<typeof createGbpPubSub>;
