import type { SandboxContext } from '../context.js';
import type { EmuKit } from '../kit/emu-kit.js';
import { graphErrors } from './errors.js';
import { followersOn } from '../kit/growth.js';
import { parseFields, pickFields, type FieldSpec } from './fields.js';
import type { GraphAnswer, GraphRequest, GraphRouter } from './router.js';
import {
  ADMIN_TASKS,
  type Authenticated,
  type GraphState,
  type GraphUser,
  type SandboxPage,
} from './state.js';

interface Deps {
  ctx: SandboxContext;
  kit: EmuKit;
  state: GraphState;
  /** Objects publishing made (containers, media, posts, comments), when not an account node. */
  readObject?: (req: GraphRequest, id: string, auth: Authenticated) => Promise<GraphAnswer | null>;
}

const encodeCursor = (index: number) => Buffer.from(`cursor:${index}`).toString('base64url');
const decodeCursor = (cursor: string | undefined) => {
  const match = /^cursor:(\d+)$/.exec(Buffer.from(cursor ?? '', 'base64url').toString());
  return match ? Number(match[1]) : 0;
};

/** The account nodes of the Graph emulator: me, Pages, Instagram users, permissions. */
export function addGraphNodeRoutes(router: GraphRouter, { ctx, kit, state, readObject }: Deps) {
  const picture = (id: string, name: string) => ({
    data: { url: kit.pictureUrl(id, name), width: 50, height: 50, is_silhouette: false },
  });

  const userNode = (user: GraphUser) => ({
    id: user.id,
    name: user.name,
    picture: picture(user.id, user.name),
  });

  function instagramNode(auth: Authenticated, page: SandboxPage, now: number) {
    if (!auth.token.scopes.includes('instagram_basic')) {
      throw graphErrors.noPermission('instagram_basic');
    }
    const ig = page.instagram!;
    return {
      id: ig.id,
      ig_id: Number(ig.id.slice(0, 10)),
      username: ig.username,
      name: ig.name,
      profile_picture_url: kit.pictureUrl(ig.id, ig.name),
      biography: `${ig.name} on the Herald sandbox.`,
      // Followers change with each day on the emulator's clock (docs/analytics.md#sandbox).
      followers_count: followersOn(ig.id, now),
      follows_count: 0,
      media_count: 0,
    };
  }

  /** A Page as its manager sees it; the Page token only when asked for (it is minted). */
  async function pageNode(
    auth: Authenticated,
    page: SandboxPage,
    specs: FieldSpec[],
    raw?: string,
  ) {
    const wantsToken = auth.token.kind === 'user' && specs.some((s) => s.name === 'access_token');
    const ig = page.instagram;
    return {
      id: page.id,
      name: page.name,
      category: 'Brand',
      link: `https://www.facebook.com/${page.id}`,
      tasks: page.tasks ?? ADMIN_TASKS,
      picture: picture(page.id, page.name),
      followers_count: followersOn(page.id, await kit.now()),
      access_token: wantsToken ? await state.pageToken(raw!, auth.token, page) : undefined,
      instagram_business_account: ig
        ? { id: ig.id, username: ig.username, name: ig.name }
        : undefined,
    };
  }

  async function readNode(req: GraphRequest, id: string): Promise<GraphAnswer> {
    const auth = await state.authenticate(req.token);
    const { user, page: actingPage } = auth;
    const pages = actingPage ? [actingPage] : user.pages;
    if (id === 'me' || id === (actingPage?.id ?? user.id)) {
      if (actingPage) {
        const specs = parseFields(req.params.fields, 'id,name');
        return { json: pickFields(await pageNode(auth, actingPage, specs), specs, 'Page') };
      }
      return {
        json: pickFields(userNode(user), parseFields(req.params.fields, 'id,name'), 'User'),
      };
    }
    const page = pages.find((p) => p.id === id);
    if (page) {
      const specs = parseFields(req.params.fields, 'id,name');
      const node = await pageNode(auth, page, specs, req.token);
      return { json: pickFields(node, specs, 'Page') };
    }
    const linked = pages.find((p) => p.instagram?.id === id);
    if (linked) {
      const specs = parseFields(req.params.fields, 'id');
      return { json: pickFields(instagramNode(auth, linked, await kit.now()), specs, 'IGUser') };
    }
    const object = await readObject?.(req, id, auth);
    if (object) return object;
    throw graphErrors.notFound(id);
  }

  async function listAccounts(req: GraphRequest): Promise<GraphAnswer> {
    const auth = await state.authenticate(req.token);
    if (auth.token.kind !== 'user') throw graphErrors.unknownField('accounts', 'Page');
    // Without pages_show_list the list is simply empty, as at Meta. Pages the person reaches
    // only through a business portfolio are not in it (docs/networks.md#facebook-conformance).
    const visible = auth.token.scopes.includes('pages_show_list')
      ? auth.user.pages.filter((p) => p.personal !== false)
      : [];
    const limit = Math.min(Math.max(Number(req.params.limit) || 25, 1), 100);
    const start = decodeCursor(req.params.after);
    const slice = visible.slice(start, start + limit);
    const specs = parseFields(req.params.fields, 'id,name');
    const data = [];
    for (const page of slice) {
      data.push(pickFields(await pageNode(auth, page, specs, req.token), specs, 'Page'));
    }
    const after = encodeCursor(start + slice.length);
    const hasMore = start + slice.length < visible.length;
    const next = new URL(`${ctx.publicBase}/${req.version ?? 'v24.0'}/me/accounts`);
    for (const [key, value] of Object.entries(req.params)) {
      if (key !== 'access_token' && key !== 'after') next.searchParams.set(key, value);
    }
    next.searchParams.set('after', after);
    return {
      json: {
        data,
        paging: {
          cursors: { before: encodeCursor(start), after },
          ...(hasMore ? { next: next.toString() } : {}),
        },
      },
    };
  }

  router.add('GET', 'me/accounts', listAccounts);
  router.add('GET', ':id/accounts', async (req, path) => {
    if (path.id !== 'me') throw graphErrors.notFound(path.id!);
    return listAccounts(req);
  });

  /** The business portfolios the person belongs to (`business_management`). */
  router.add('GET', 'me/businesses', async (req) => {
    const auth = await state.authenticate(req.token);
    if (auth.token.kind !== 'user') throw graphErrors.unknownField('businesses', 'Page');
    if (!auth.token.scopes.includes('business_management'))
      throw graphErrors.noPermission('business_management');
    const seen = new Map<string, { id: string; name: string }>();
    for (const page of auth.user.pages)
      for (const b of page.businesses ?? []) seen.set(b.id, { id: b.id, name: b.name });
    const specs = parseFields(req.params.fields, 'id,name');
    return {
      json: { data: [...seen.values()].map((b) => pickFields(b, specs, 'Business')), paging: {} },
    };
  });

  /** A portfolio's own Pages and its clients' Pages, as the person may act on them. */
  for (const relation of ['owned', 'client'] as const) {
    router.add('GET', `:id/${relation}_pages`, async (req, path) => {
      const auth = await state.authenticate(req.token);
      if (!auth.token.scopes.includes('business_management'))
        throw graphErrors.noPermission('business_management');
      const pages = auth.user.pages.filter((p) =>
        (p.businesses ?? []).some((b) => b.id === path.id && b.relation === relation),
      );
      if (!auth.user.pages.some((p) => (p.businesses ?? []).some((b) => b.id === path.id)))
        throw graphErrors.notFound(path.id!);
      const specs = parseFields(req.params.fields, 'id,name');
      const data = [];
      for (const page of pages)
        data.push(pickFields(await pageNode(auth, page, specs, req.token), specs, 'Page'));
      return { json: { data, paging: {} } };
    });
  }

  router.add('GET', 'me/permissions', async (req) => {
    const { token } = await state.authenticate(req.token);
    return {
      json: { data: token.scopes.map((permission) => ({ permission, status: 'granted' })) },
    };
  });

  router.add('DELETE', 'me/permissions', async (req) => {
    const { user } = await state.authenticate(req.token);
    await state.removeApp(user);
    return { json: { success: true } };
  });

  router.add('GET', ':id', (req, path) => readNode(req, path.id!));
}
