import type {
  ActivityDay,
  AuditEntry,
  Plan,
  Platform,
  PublicMediaUrlFinding,
  SavePlanRequest,
  User,
} from '@herald/contract';
import { createMe, createPlan, createUser } from './factories';
import { fail, ok, type FakeReply, type FakeRequest, type Handler } from './fake-server';
import { supportedPlatforms } from './platform-fixtures';

/** A signed-in platform operator without an organization (the back-office needs none). */
export const operatorSession = (user: Partial<User> = {}) =>
  createMe({
    organizationId: null,
    user: {
      id: 'usr_ops',
      displayName: 'Olga Ops',
      email: 'ops@example.com',
      isAdmin: true,
      ...user,
    },
  });

export interface BackOffice {
  users: User[];
  plans: Plan[];
  platforms: Platform[];
  audit: AuditEntry[];
  activity: ActivityDay[];
  /** What `GET /platforms/public-media-url` answers (nothing wrong unless set). */
  publicMediaUrl?: PublicMediaUrlFinding | null;
}

/** Thirty quiet days ending on 2026-03-30, with some activity on the last two. */
export function createActivity(): ActivityDay[] {
  return Array.from({ length: 30 }, (_, i) => {
    const date = new Date(Date.UTC(2026, 2, 1 + i)).toISOString().slice(0, 10);
    return { date, signUps: i === 28 ? 3 : i === 29 ? 1 : 0, posts: i === 29 ? 5 : 0 };
  });
}

export function createBackOffice(overrides: Partial<BackOffice> = {}): BackOffice {
  return {
    users: [
      createUser({ id: 'usr_ada', displayName: 'Ada Lovelace', email: 'ada@example.com' }),
      createUser({ id: 'usr_anon', displayName: null, email: 'anon@example.com', timezone: null }),
    ],
    plans: [
      createPlan({ id: 'plan_starter', name: 'Starter', price: 0 }),
      createPlan({ id: 'plan_basic', name: 'Basic', price: 29, popular: true }),
      createPlan({ id: 'plan_old', name: 'Legacy', price: 5, status: 'INACTIVE' }),
    ],
    platforms: [
      ...supportedPlatforms(),
      {
        ...supportedPlatforms()[0]!,
        id: 'plt_pixelfed',
        name: 'Pixelfed',
        isActive: false,
        connectable: false,
      },
    ],
    audit: [],
    activity: createActivity(),
    ...overrides,
  };
}

const page = (request: FakeRequest) => Number(request.query.get('page') ?? 1);
const pageSize = (request: FakeRequest) => Number(request.query.get('pageSize') ?? 10);
const contains = (text: string | null, words: string) =>
  (text ?? '').toLowerCase().includes(words.toLowerCase());

/**
 * The back-office API over `state`, the way the server answers it: paged lists with totals,
 * case-insensitive search, and edits that change the state (so a reload shows them).
 */
export function backOfficeRoutes(state: BackOffice): Record<string, Handler | FakeReply> {
  const routes: Record<string, Handler | FakeReply> = {
    'GET /users': (request) => {
      const search = request.query.get('search') ?? '';
      const matching = state.users.filter(
        (u) => contains(u.displayName, search) || contains(u.email, search),
      );
      const size = pageSize(request);
      const start = (page(request) - 1) * size;
      return {
        status: 200,
        body: {
          status: 'success',
          data: { users: matching.slice(start, start + size) },
          meta: { page: page(request), pageSize: size, totalCount: matching.length },
        },
      };
    },
    'GET /plans': (request) => {
      if (!request.query.has('page')) {
        return ok({ plans: state.plans.filter((p) => p.status === 'ACTIVE') });
      }
      const search = request.query.get('search') ?? '';
      const matching = state.plans.filter(
        (p) => contains(p.name, search) || contains(p.description, search),
      );
      const size = pageSize(request);
      const start = (page(request) - 1) * size;
      return {
        status: 200,
        body: {
          status: 'success',
          data: { plans: matching.slice(start, start + size) },
          meta: { page: page(request), pageSize: size, totalCount: matching.length },
        },
      };
    },
    'POST /plans': (request) => {
      const body = request.body as SavePlanRequest;
      const plan = createPlan({
        ...(body as Partial<Plan>),
        id: `plan_${state.plans.length + 1}`,
        createdAt: '2026-03-30T12:00:00.000Z',
      });
      state.plans.push(plan);
      return { status: 201, body: { status: 'success', data: { plan } } };
    },
    'GET /platforms': () => ok({ platforms: state.platforms }),
    'GET /platforms/public-media-url': () => ok({ finding: state.publicMediaUrl ?? null }),
    'POST /platforms': (request) => {
      const body = request.body as { name: string; mediaConstraints: Platform['mediaConstraints'] };
      const platform = {
        ...state.platforms[0]!,
        id: `plt_new_${state.platforms.length}`,
        name: body.name,
        mediaConstraints: body.mediaConstraints,
        isActive: true,
        connectable: false,
      };
      state.platforms.push(platform);
      return { status: 201, body: { status: 'success', data: { platform } } };
    },
    'GET /admin/overview': () =>
      ok({
        counts: {
          users: state.users.length,
          platforms: state.platforms.length,
          plans: state.plans.length,
        },
      }),
    'GET /admin/activity': (request) =>
      ok({ timezone: request.query.get('timezone') ?? 'UTC', days: state.activity }),
    'GET /admin/audit-log': (request) => {
      const size = pageSize(request);
      const start = (page(request) - 1) * size;
      return {
        status: 200,
        body: {
          status: 'success',
          data: { entries: state.audit.slice(start, start + size) },
          meta: { page: page(request), pageSize: size, totalCount: state.audit.length },
        },
      };
    },
  };
  for (const user of state.users) {
    routes[`GET /users/${user.id}`] = () => {
      const current = state.users.find((u) => u.id === user.id);
      return current ? ok({ user: current }) : fail(404, 'NOT_FOUND', 'This user does not exist.');
    };
    routes[`PUT /users/${user.id}`] = (request) => {
      const index = state.users.findIndex((u) => u.id === user.id);
      const changes = request.body as Partial<User>;
      state.users[index] = { ...state.users[index]!, ...changes };
      return ok({ user: state.users[index] });
    };
  }
  for (const plan of state.plans) {
    routes[`PUT /plans/${plan.id}`] = (request) => {
      const index = state.plans.findIndex((p) => p.id === plan.id);
      state.plans[index] = { ...state.plans[index]!, ...(request.body as Partial<Plan>) };
      return ok({ plan: state.plans[index] });
    };
  }
  for (const platform of state.platforms) {
    for (const [action, isActive] of [
      ['activate', true],
      ['deactivate', false],
    ] as const) {
      routes[`PUT /platforms/${platform.id}/${action}`] = () => {
        const index = state.platforms.findIndex((p) => p.id === platform.id);
        state.platforms[index] = { ...state.platforms[index]!, isActive };
        return ok({ platform: state.platforms[index] });
      };
    }
  }
  return routes;
}
