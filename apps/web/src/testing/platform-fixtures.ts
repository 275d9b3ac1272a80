import type { Integration, Platform } from '@herald/contract';
import { ok, type FakeReply, type Handler } from './fake-server';

let sequence = 0;
const nextId = (prefix: string) => `${prefix}_${++sequence}`;

/** A supported network as `GET /platforms/supported` answers it; connectable, no sandbox. */
export function createPlatform(overrides: Partial<Platform> = {}): Platform {
  return {
    id: nextId('plt'),
    name: 'X',
    isActive: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    mediaConstraints: {},
    sandbox: false,
    connectable: true,
    ...overrides,
  };
}

/** The seeded networks, with stable ids (`plt_x`, `plt_facebook`…). */
export function supportedPlatforms(overrides: Partial<Platform> = {}): Platform[] {
  return ['X', 'Instagram', 'Facebook', 'Threads', 'TikTok', 'LinkedIn'].map((name) =>
    createPlatform({ id: `plt_${name.toLowerCase()}`, name, ...overrides }),
  );
}

/** A connected account of the organization; by default an X account that works. */
export function createIntegration(
  overrides: Partial<Omit<Integration, 'metadata'>> & {
    metadata?: Partial<Integration['metadata']>;
  } = {},
): Integration {
  const { metadata, ...rest } = overrides;
  return {
    id: nextId('int'),
    status: 'CONNECTED',
    platform: { id: 'plt_x', name: 'X' },
    platformAccountId: nextId('ext'),
    connectedAt: '2026-03-01T10:00:00.000Z',
    tokenExpiresAt: '2026-03-01T12:00:00.000Z',
    sandbox: false,
    lastError: null,
    textLimit: null,
    scheduledPostCount: 0,
    ...rest,
    metadata: { pictureUrl: null, username: 'ada_posts', name: 'Ada Posts', ...metadata },
  };
}

/** The read routes of the settings screen for one organization. */
export function integrationRoutes({
  orgId = 'org_1',
  platforms = supportedPlatforms(),
  integrations = [],
}: {
  orgId?: string;
  platforms?: Platform[];
  integrations?: Integration[];
} = {}): Record<string, Handler | FakeReply> {
  return {
    'GET /platforms/supported': ok({ platforms }),
    [`GET /organizations/${orgId}/integrations`]: ok({ platforms: integrations }),
  };
}
