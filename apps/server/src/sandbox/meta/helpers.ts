import { unreachableMediaBase } from '../../lib/public-url.js';
import type { SandboxContext } from '../context.js';
import type { EmuKit } from '../kit/emu-kit.js';
import type { Scenario } from '../kit/scenario.js';
import { graphErrors } from './errors.js';
import type { FieldSpec } from './fields.js';
import type { GraphObject, GraphObjects } from './objects.js';
import type { GraphAnswer, GraphRequest } from './router.js';
import type { Authenticated, GraphState } from './state.js';

/** How one kind of object answers `GET /{id}?fields=…`. */
export interface ObjectView {
  nodeType: string;
  defaults: string;
  view(object: GraphObject, specs: FieldSpec[]): Promise<Record<string, unknown>>;
}

/** What the publishing and comment routes share. */
export interface PublishDeps {
  ctx: SandboxContext;
  kit: EmuKit;
  state: GraphState;
  objects: GraphObjects;
  views: Map<GraphObject['type'], ObjectView>;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const wants = (specs: FieldSpec[], name: string) => specs.some((s) => s.name === name);

/** Code 10 when the person did not grant the permission a call needs. */
export function requireScope(auth: Authenticated, permission: string) {
  if (!auth.token.scopes.includes(permission)) throw graphErrors.noPermission(permission);
}

/**
 * Why Meta could not fetch a media URL, if it could not: not an http(s) URL; not public https
 * (loopback, private, `localhost`, plain http) unless the sandbox was told it runs locally
 * (`runsLocally`); or a signed URL (`exp` in unix seconds, as Herald signs them) already expired
 * on the emulator's clock.
 */
export function mediaUrlProblem(value: string | undefined, now: number, runsLocally = true) {
  let url: URL;
  try {
    url = new URL(value ?? '');
  } catch {
    return 'invalid' as const;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'invalid' as const;
  if (!runsLocally && unreachableMediaBase(url.href)) return 'unreachable' as const;
  const exp = Number(url.searchParams.get('exp'));
  if (url.searchParams.has('exp') && Number.isFinite(exp) && exp * 1000 < now) {
    return 'expired' as const;
  }
  return null;
}

/** Graph takes id lists as `a,b,c` or as a JSON array. */
export function parseIdList(value: string | undefined): string[] {
  const text = (value ?? '').trim();
  if (text.startsWith('[')) {
    try {
      const list = JSON.parse(text) as unknown[];
      return list.map((v) => String(v)).filter(Boolean);
    } catch {
      return [];
    }
  }
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

const encodeCursor = (index: number) => Buffer.from(`cursor:${index}`).toString('base64url');
const decodeCursor = (cursor: string | undefined) => {
  const match = /^cursor:(\d+)$/.exec(Buffer.from(cursor ?? '', 'base64url').toString());
  return match ? Number(match[1]) : 0;
};

/** One page of a list with Graph's cursors, and `next` only when there is more. */
export function paginate<T>(
  ctx: SandboxContext,
  req: GraphRequest,
  path: string,
  items: T[],
  defaultLimit = 25,
) {
  const limit = Math.min(Math.max(Number(req.params.limit) || defaultLimit, 1), 100);
  const start = decodeCursor(req.params.after);
  const slice = items.slice(start, start + limit);
  const after = encodeCursor(start + slice.length);
  const next = new URL(`${ctx.publicBase}/${req.version ?? 'v24.0'}/${path}`);
  for (const [key, value] of Object.entries(req.params)) {
    if (key !== 'access_token' && key !== 'after') next.searchParams.set(key, value);
  }
  next.searchParams.set('after', after);
  const hasMore = start + slice.length < items.length;
  return {
    slice,
    paging: {
      cursors: { before: encodeCursor(start), after },
      ...(hasMore ? { next: next.toString() } : {}),
    },
  };
}

/**
 * The answer of a visible call, after the post exists: `finalize_timeout` waits its value in ms,
 * then closes the connection, so the caller never learns the post's id.
 */
export async function answerVisible(scenario: Scenario, json: unknown): Promise<GraphAnswer> {
  const hang = await scenario.takeValue('finalize_timeout');
  if (hang === null) return { json };
  if (hang > 0) await sleep(hang);
  return { drop: true };
}
