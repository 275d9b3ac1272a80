import {
  apiVersionStatus,
  META_GRAPH_VERSIONS,
  oldestServedVersion,
} from '../../lib/api-versions.js';

/**
 * A small route table for Graph paths. Graph ids and edges are all path segments
 * (`/{id}`, `/{id}/{edge}`, `/me/accounts`), with or without a `/v{N}` prefix, so the
 * emulator takes every request under its mount and matches here, literal segments first.
 */
export type GraphMethod = 'GET' | 'POST' | 'DELETE';

export interface GraphRequest {
  method: GraphMethod;
  /** `v24.0`, or null when the path had no version. */
  version: string | null;
  /** Query and body parameters together, as strings (the body wins). */
  params: Record<string, string>;
  /** From `Authorization: OAuth|Bearer …` or the `access_token` parameter. */
  token: string | undefined;
  /** Whether `token` came in the Authorization header (the upload endpoint takes it only there). */
  tokenInHeader: boolean;
  /** Request headers, lower-cased (the upload endpoint reads `file_offset` from them). */
  headers: Record<string, string | undefined>;
  /** A raw body the upload endpoint received (octet-stream), counted as it streamed past. */
  upload: ReceivedBytes | null;
}

/** An `application/octet-stream` body: how many bytes arrived, and the first few. */
export interface ReceivedBytes {
  bytes: number;
  head: Buffer;
}

export type GraphAnswer =
  | { json: unknown; status?: number }
  | { html: string; status?: number }
  | { redirect: string }
  /** Closes the connection without an answer (a visible call whose response is lost). */
  | { drop: true };

export type GraphHandler = (
  request: GraphRequest,
  path: Record<string, string>,
) => Promise<GraphAnswer>;

interface Route {
  method: GraphMethod;
  segments: string[];
  handler: GraphHandler;
}

export class GraphRouter {
  private readonly routes: Route[] = [];

  /**
   * `pattern` like `me/accounts` or `:id/comments`; `upload::session` is a segment that starts
   * with the literal `upload:` and names the rest `session` (Graph's `upload:{id}` nodes).
   */
  add(method: GraphMethod, pattern: string, handler: GraphHandler) {
    this.routes.push({ method, segments: pattern.split('/'), handler });
    // Literal segments win over parameters, as in Graph (`me/accounts` before `:id/:edge`).
    const literals = (r: Route) => r.segments.filter((s) => !s.startsWith(':')).length;
    this.routes.sort((a, b) => literals(b) - literals(a));
  }

  match(method: string, segments: string[]) {
    for (const route of this.routes) {
      if (route.method !== method || route.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const ok = route.segments.every((s, i) => {
        const segment = segments[i]!;
        const prefixed = /^([^:]+:):(\w+)$/.exec(s);
        if (prefixed) {
          if (!segment.startsWith(prefixed[1]!)) return false;
          params[prefixed[2]!] = segment.slice(prefixed[1]!.length);
          return true;
        }
        if (s.startsWith(':')) params[s.slice(1)] = segment;
        return s.startsWith(':') || s === segment;
      });
      if (ok) return { handler: route.handler, params };
    }
    return null;
  }
}

/** Splits `/v24.0/me/accounts` into its version and path segments. */
export function splitGraphPath(path: string) {
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  const version = segments[0] && /^v\d+(\.\d+)?$/.test(segments[0]) ? segments.shift()! : null;
  return { version, segments };
}

/**
 * The version Graph answers a call naming `version` as, on `now` (Herald's one table,
 * lib/api-versions.ts): itself while served; once it has ended, the oldest version still served,
 * as Meta does without refusing (https://developers.facebook.com/docs/graph-api/guides/versioning);
 * null for a version Graph does not have (never released, not yet released, or malformed), which
 * Graph reads as an unknown path.
 */
export function servedGraphVersion(version: string, now: Date): string | null {
  const status = apiVersionStatus(META_GRAPH_VERSIONS, version, now);
  if (status.state === 'ended') return oldestServedVersion(META_GRAPH_VERSIONS, now);
  if (status.state === 'served' || status.state === 'ending') return version;
  return null;
}
