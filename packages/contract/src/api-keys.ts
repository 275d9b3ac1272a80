import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { PermissionNameSchema } from './team.js';

/**
 * Organization API keys (docs/api.md): `Authorization: Bearer hrld_<prefix>_<secret>` on the
 * organization's routes. The prefix is shown in lists and logs; only a hash of the whole key is
 * kept, so the secret is shown once, in the answer that creates it.
 */
export const API_KEY_PATTERN = /^hrld_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/;

export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `hrld_<prefix>`: the first part of the key, enough to tell keys apart. */
  prefix: z.string(),
  permissions: z.array(z.string()),
  createdBy: z.object({ id: z.string().nullable(), email: z.string().nullable() }),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeyParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  keyId: z.uuid('The API key id is not valid.'),
});

export const CreateApiKeyRequestSchema = z.object({
  name: z
    .string({ error: 'Give the key a name.' })
    .trim()
    .min(1, 'Give the key a name.')
    .max(80, 'A key name must be at most 80 characters.'),
  permissions: z
    .array(PermissionNameSchema, { error: 'Choose at least one permission.' })
    .min(1, 'Choose at least one permission.'),
  /** Optional; after it the key is refused. Must be in the future. */
  expiresAt: z.iso
    .datetime({
      offset: true,
      error: 'expiresAt must be a date and time such as 2027-01-31T00:00:00Z.',
    })
    .nullish(),
});
export type CreateApiKeyRequest = z.input<typeof CreateApiKeyRequestSchema>;

/** The new key: `key` is the secret, shown this once. */
export const CreateApiKeyResponseSchema = successEnvelope(
  z.object({ key: z.string(), apiKey: ApiKeySchema }),
);
export type CreateApiKeyResponse = z.infer<typeof CreateApiKeyResponseSchema>;

export const ApiKeysResponseSchema = successEnvelope(z.object({ apiKeys: z.array(ApiKeySchema) }));
export type ApiKeysResponse = z.infer<typeof ApiKeysResponseSchema>;
