import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks' symmetric scheme (v1): the secret is `whsec_` + base64 of random bytes, and
 * a signature is `v1,` + base64 of HMAC-SHA256, keyed by those bytes, of `id.timestamp.body`.
 */
const PREFIX = 'whsec_';

/** 24 random bytes: the spec asks for 24 to 64. */
export const newSecret = () => `${PREFIX}${randomBytes(24).toString('base64')}`;

/** The `webhook-id`: fixed once per event, never containing the `.` the signed content joins on. */
export const newMessageId = () => `msg_${randomBytes(16).toString('hex')}`;

export function signatureOf(secret: string, id: string, timestamp: number, body: string) {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The headers of one attempt; each live secret signs (space-separated, as during a rotation). */
export function signedHeaders(secrets: string[], id: string, timestamp: number, body: string) {
  return {
    'content-type': 'application/json',
    'user-agent': 'Herald webhooks',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signatureOf(s, id, timestamp, body)).join(' '),
  };
}
