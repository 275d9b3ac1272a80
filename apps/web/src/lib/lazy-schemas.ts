/**
 * Contract schemas of the answers the first screens wait for. Requests name them through a
 * loader (`schema: () => import('@/lib/lazy-schemas').then((m) => m.X)`) so that zod and the
 * contract load while the request travels rather than as part of the first download; the landing
 * and login pages paint without them.
 */
export {
  AuthProviderResponseSchema,
  MeResponseSchema,
  PlansResponseSchema,
  UserResponseSchema,
} from '@herald/contract';
