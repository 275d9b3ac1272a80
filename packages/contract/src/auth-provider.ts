import { z } from 'zod';
import { successEnvelope } from './envelope.js';

/** Which identity provider `GET /auth/google` leads to, so the login button can name it. */
export const AuthProviderSchema = z.object({
  kind: z.enum(['google', 'oidc', 'development']),
  label: z.string(),
});
export type AuthProvider = z.infer<typeof AuthProviderSchema>;
export const AuthProviderResponseSchema = successEnvelope(AuthProviderSchema);
