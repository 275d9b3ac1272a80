import { z } from 'zod';
import { successEnvelope } from './envelope.js';

/** Which identity provider `GET /auth/google` leads to, so the login button can name it. */
const AuthProviderSchema = z.object({
  kind: z.enum(['google', 'oidc', 'development']),
  label: z.string(),
});
export const AuthProviderResponseSchema = successEnvelope(AuthProviderSchema);
