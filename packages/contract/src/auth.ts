import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { WebUrlSchema, webUrlInput } from './web-url.js';

export const UserSchema = z.object({
  id: z.string(),
  displayName: z.string().nullable(),
  email: z.string(),
  avatarUrl: WebUrlSchema.nullable(),
  timezone: z.string().nullable(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof UserSchema>;

/** The caller's membership in their current organization (null before onboarding). */
const CurrentMemberSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  organization: z.object({ id: z.string(), name: z.string() }),
  roleId: z.string().nullable(),
  role: z.object({ id: z.string(), name: z.string() }).nullable(),
  status: z.string(),
  /** Effective permissions in that organization (docs/product.md#roles-and-permissions names). */
  permissions: z.array(z.string()),
  /** The connected accounts they work with when an Admin limited them to some; null: every one. */
  accountIds: z.array(z.string()).nullable(),
});
export type CurrentMember = z.infer<typeof CurrentMemberSchema>;

const MeDataSchema = z.object({
  user: UserSchema,
  member: CurrentMemberSchema.nullable(),
});
export type MeData = z.infer<typeof MeDataSchema>;
export const MeResponseSchema = successEnvelope(MeDataSchema);

const MessageDataSchema = z.object({ message: z.string() });
export const MessageResponseSchema = successEnvelope(MessageDataSchema);

/** Query of `GET /auth/google`: where to return after sign-in (a same-site path). */
export const SignInQuerySchema = z.object({
  returnTo: z
    .string()
    .regex(/^\/(?![/\\])[^\\]*$/, 'returnTo must be a path on this site.')
    .max(2000, 'returnTo is too long.')
    .optional(),
});

/** Whether `zone` is an IANA time zone name this runtime knows (e.g. Europe/Paris, UTC). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/**
 * `PUT /users/{userId}`: settings send displayName and timezone; the back-office also avatarUrl.
 * Only these three fields can change. A timezone left out stays as it is (an operator fixing a
 * name need not invent a zone for someone who never chose one); a blank one is refused.
 */
export const UpdateUserRequestSchema = z.object({
  displayName: z
    .string({ error: 'Please fill all fields.' })
    .trim()
    .min(1, 'Please fill all fields.')
    .max(100, 'Display name must be at most 100 characters.'),
  timezone: z
    .string({ error: 'Please fill all fields.' })
    .trim()
    .min(1, 'Please fill all fields.')
    .refine(isTimeZone, 'Choose a time zone from the list (an IANA name such as Europe/Paris).')
    .optional(),
  avatarUrl: webUrlInput(
    'The avatar must be a web address starting with http:// or https://.',
    'The avatar address must be at most 2048 characters.',
  ).nullish(),
});
/**
 * `PUT /users/me/default-timezone`: the browser's zone, sent once after sign-in. It is stored
 * only while the user has no zone yet; a zone chosen in settings is never replaced.
 */
export const DefaultTimeZoneRequestSchema = z.object({
  timezone: z
    .string()
    .trim()
    .refine(isTimeZone, 'Choose a time zone from the list (an IANA name such as Europe/Paris).'),
});
export type DefaultTimeZoneRequest = z.infer<typeof DefaultTimeZoneRequestSchema>;

export const UserParamsSchema = z.object({ userId: z.uuid('The user id is not valid.') });
export const UserResponseSchema = successEnvelope(z.object({ user: UserSchema }));
