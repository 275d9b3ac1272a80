import type { JsonSchema, Operation, Parameter } from './openapi.js';
import type { Prng } from './prng.js';

/** One generated request: what `app.inject` sends, with a label naming the mutation. */
export interface FuzzRequest {
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

export interface FuzzContext {
  /** The organization the actor is an Admin of: fills every `{orgId}`. */
  orgId: string;
  prng: Prng;
  /**
   * Ids of existing records by parameter or field name (`postId`, `roleId`, `platformId`…):
   * baselines use them half of the time, valid-but-unknown and malformed ids the rest.
   */
  known?: Record<string, string[]>;
}

type IdMode = 'known' | 'unknown' | 'malformed';

export const HUGE = 'x'.repeat(100 * 1024);
const OUT_OF_RANGE_DATES = [
  '+275760-09-13T00:00:00.000Z',
  '2024-13-45',
  '2024-02-30T25:61:00Z',
  '0000-01-01T00:00:00.000Z',
  '-000001-01-01T00:00:00.000Z',
  '99999-01-01',
];
const BAD_UUIDS = [
  'not-a-uuid',
  '00000000-0000-0000-0000-00000000000g',
  '123',
  '{00000000-0000-4000-8000-000000000000}',
  '00000000000040008000000000000000',
  '../../etc/passwd',
];
export const HOSTILE_STRINGS = [
  '',
  ' ',
  HUGE,
  'a\u0000b',
  '\u0000',
  ...BAD_UUIDS,
  ...OUT_OF_RANGE_DATES,
  '9'.repeat(400),
  'NaN',
  'Infinity',
  '-1',
  '1e999',
  '0x10',
  '💥'.repeat(64),
  '\ud800',
  '\u202eevil',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '__proto__',
  'constructor',
  '%00',
  'true',
  'null',
];
export const HOSTILE_VALUES: unknown[] = [
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 2,
  true,
  false,
  null,
  [],
  {},
  ['a'],
  { a: 1 },
  [null],
];
export const BAD_ENCODINGS = [
  '%C0%AE',
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AE%C0%AE%2F',
  '%FF%FE',
  '%u0041',
];
export const PROTO_BODIES = [
  '{"__proto__":{"polluted":"yes","isAdmin":true}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"prototype":{"polluted":"yes"},"__proto__":null}',
];
export const PROTO_QUERIES = [
  '__proto__[polluted]=yes',
  'constructor[prototype][polluted]=yes',
  '__proto__=yes&prototype=yes',
  '__proto__.polluted=yes',
];

type Location = { where: 'body'; path: string[] } | { where: 'query' | 'path'; name: string };

interface Parts {
  pathValues: Record<string, string>;
  /** Path values inserted as they are (bad percent-encoding), not encoded. */
  rawPath: Set<string>;
  query: Array<[string, string]>;
  /** Query text appended as is. */
  rawQuery: string[];
  body: unknown;
  /** Body text sent as is (replaces `body`). */
  rawBody?: string | Buffer;
  contentType?: string;
}

const typesOf = (s: JsonSchema | undefined): string[] =>
  !s?.type ? [] : Array.isArray(s.type) ? s.type : [s.type];

const looksLikeDate = (name: string) => /(At|^from|^to|date|Date|cursor)$/.test(name);

/** A value the schema accepts (as far as the generator can tell): the baseline to mutate. */
export function validValue(
  schema: JsonSchema | undefined,
  ctx: Pick<FuzzContext, 'prng' | 'known'> & { ids?: IdMode },
  name = '',
  depth = 0,
): unknown {
  const { prng } = ctx;
  if (!schema || depth > 6) return 'fuzz';
  const known = ctx.known?.[name];
  if (known?.length && ctx.ids !== 'unknown' && typesOf(schema).includes('string'))
    return prng.pick(known);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return prng.pick(schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) {
    const nonNull = alternatives.filter((a) => !typesOf(a).includes('null'));
    return validValue(prng.pick(nonNull.length ? nonNull : alternatives), ctx, name, depth + 1);
  }
  if (schema.allOf?.length) return validValue(schema.allOf[0], ctx, name, depth + 1);
  const types = typesOf(schema).filter((t) => t !== 'null');
  const type = types[0] ?? (schema.properties ? 'object' : 'string');
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid' || /Id$|^id$/.test(name)) return prng.uuid();
      if (schema.format === 'date-time' || looksLikeDate(name))
        return new Date(Date.UTC(2030, prng.int(0, 11), prng.int(1, 28), 12)).toISOString();
      if (schema.format === 'email' || /email/i.test(name))
        return `fuzz${prng.int(1, 999)}@example.test`;
      if (schema.format === 'uri' || /url/i.test(name)) return 'https://example.test/fuzz';
      if (/timezone/i.test(name)) return 'Europe/Paris';
      const min = schema.minLength ?? 1;
      const text = `fuzz ${name || 'text'} ${prng.int(1, 9999)}`;
      return text.padEnd(min, 'x').slice(0, schema.maxLength ?? text.length + min);
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 1;
      const max = Math.min(schema.maximum ?? min + 10, min + 10);
      return prng.int(Math.ceil(min), Math.floor(max));
    }
    case 'boolean':
      return prng.chance(0.5);
    case 'array': {
      const n = Math.max(schema.minItems ?? 0, 1);
      const item = name.replace(/Ids$/, 'Id');
      return Array.from({ length: n }, () => validValue(schema.items, ctx, item, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || prng.chance(0.6)) {
          out[key] = validValue(prop, ctx, key, depth + 1);
        }
      }
      return out;
    }
    default:
      return null;
  }
}

function baseline(op: Operation, ctx: FuzzContext, ids: IdMode): Parts {
  const { prng } = ctx;
  const valueCtx = { prng, known: ctx.known, ids };
  const pathValues: Record<string, string> = {};
  const query: Array<[string, string]> = [];
  for (const p of op.parameters) {
    if (p.in === 'path') {
      if (p.name === 'orgId') pathValues[p.name] = ctx.orgId;
      else if (p.name === '*') pathValues[p.name] = `fuzz/${prng.uuid()}.png`;
      else if (ids === 'malformed') pathValues[p.name] = prng.pick(BAD_UUIDS);
      else pathValues[p.name] = String(validValue(p.schema, valueCtx, p.name));
    } else if (p.in === 'query' && (p.required || prng.chance(0.5))) {
      query.push([p.name, queryText(p, ctx, ids)]);
    }
  }
  const body =
    op.body !== undefined
      ? validValue(op.body, valueCtx)
      : op.multipartFields
        ? Object.fromEntries(op.multipartFields.map((f) => [f, multipartValue(f, ctx)]))
        : undefined;
  return { pathValues, rawPath: new Set(), query, rawQuery: [], body };
}

function queryText(p: Parameter, ctx: FuzzContext, ids: IdMode): string {
  if (p.name === 'orgId' || p.name === 'organizationId') return ctx.orgId;
  const v = validValue(p.schema, { ...ctx, ids }, p.name);
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function multipartValue(field: string, { prng, known }: FuzzContext): string {
  if (field === 'platformIds')
    return JSON.stringify([
      prng.pick(known?.platformId?.length ? known.platformId : [prng.uuid()]),
    ]);
  if (field === 'platformMedia') return '{}';
  if (field === 'scheduledAt') return new Date(Date.UTC(2031, 0, 1)).toISOString();
  if (field === 'media') return 'not a file';
  return `fuzz ${field}`;
}

/** Every leaf (and object) path of a JSON value, for picking a field to break. */
function fieldPaths(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  if (value && typeof value === 'object' && prefix.length < 6) {
    for (const [k, v] of Object.entries(value)) {
      out.push([...prefix, k]);
      fieldPaths(v, [...prefix, k], out);
    }
  }
  return out;
}

function setAt(root: unknown, path: string[], value: unknown, remove = false): unknown {
  if (path.length === 0) return value;
  const copy: any = Array.isArray(root) ? [...root] : { ...(root as object) };
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) {
    if (remove) delete copy[head];
    else copy[head] = value;
  } else copy[head] = setAt(copy[head], rest, value, remove);
  return copy;
}

function locations(op: Operation, parts: Parts): Location[] {
  const out: Location[] = [];
  if (parts.body !== undefined) {
    out.push({ where: 'body', path: [] });
    for (const path of fieldPaths(parts.body)) out.push({ where: 'body', path });
  }
  for (const p of op.parameters) {
    if (p.in === 'query') out.push({ where: 'query', name: p.name });
    if (p.in === 'path' && p.name !== 'orgId') out.push({ where: 'path', name: p.name });
  }
  return out;
}

const asText = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'));

function replaceAt(parts: Parts, loc: Location, value: unknown): string {
  if (loc.where === 'body') {
    parts.body = setAt(parts.body, loc.path, value);
    return `body.${loc.path.join('.') || '(root)'}`;
  }
  if (loc.where === 'query') {
    parts.query = parts.query.filter(([k]) => k !== loc.name);
    parts.query.push([loc.name, asText(value)]);
    return `query.${loc.name}`;
  }
  parts.pathValues[loc.name] = asText(value);
  return `path.${loc.name}`;
}

const describe = (v: unknown) => {
  const t = asText(v);
  return t.length > 40 ? `${t.slice(0, 20)}…(${t.length} chars)` : JSON.stringify(t);
};

function deepJson(depth: number, array: boolean): string {
  return array
    ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** The mutations: each changes the baseline parts and returns a label. */
const MUTATIONS: Array<(op: Operation, parts: Parts, ctx: FuzzContext) => string | null> = [
  // A hostile value (wrong type, huge, NUL, bad id or date…) in one field or parameter.
  (op, parts, { prng }) => {
    const locs = locations(op, parts);
    if (!locs.length) return null;
    const loc = prng.pick(locs);
    const value = prng.chance(0.65) ? prng.pick(HOSTILE_STRINGS) : prng.pick(HOSTILE_VALUES);
    return `${replaceAt(parts, loc, value)} = ${describe(value)}`;
  },
  // A hostile string specifically (the most productive kind), in a text place.
  (op, parts, { prng }) => {
    const locs = locations(op, parts).filter((l) => l.where !== 'body' || l.path.length > 0);
    if (!locs.length) return null;
    const loc = prng.pick(locs);
    const value = prng.pick([HUGE, 'a\u0000b', ...OUT_OF_RANGE_DATES, ...BAD_UUIDS]);
    return `${replaceAt(parts, loc, value)} = ${describe(value)}`;
  },
  // A missing field or parameter.
  (op, parts, { prng }) => {
    const paths = fieldPaths(parts.body);
    if (paths.length && prng.chance(0.7)) {
      const path = prng.pick(paths);
      parts.body = setAt(parts.body, path, undefined, true);
      return `missing body.${path.join('.')}`;
    }
    if (parts.query.length) {
      const [name] = prng.pick(parts.query);
      parts.query = parts.query.filter(([k]) => k !== name);
      return `missing query.${name}`;
    }
    if (parts.body !== undefined) {
      parts.body = undefined;
      return 'missing body';
    }
    return null;
  },
  // Prototype-pollution keys in the body or the query string.
  (_op, parts, { prng }) => {
    if (prng.chance(0.5)) {
      const raw = prng.pick(PROTO_BODIES);
      const base = parts.body && typeof parts.body === 'object' ? JSON.stringify(parts.body) : '{}';
      parts.rawBody = base === '{}' ? raw : `${raw.slice(0, -1)},${base.slice(1)}`;
      parts.contentType = 'application/json';
      return `body ${raw}`;
    }
    const q = prng.pick(PROTO_QUERIES);
    parts.rawQuery.push(q);
    return `query ${q}`;
  },
  // Deep nesting in the body or the query string.
  (_op, parts, { prng }) => {
    const depth = prng.pick([64, 500, 5000]);
    if (prng.chance(0.7)) {
      const nested = deepJson(depth, prng.chance(0.5));
      const base = parts.body && typeof parts.body === 'object' ? JSON.stringify(parts.body) : '{}';
      const field = prng.pick(Object.keys((parts.body as object) ?? {}).concat('nested'));
      parts.rawBody =
        base === '{}' ? `{"${field}":${nested}}` : `${base.slice(0, -1)},"${field}":${nested}}`;
      parts.contentType = 'application/json';
      return `body nested ${depth} deep in ${field}`;
    }
    const name = parts.query[0]?.[0] ?? 'q';
    parts.rawQuery.push(`${name}${'[a]'.repeat(Math.min(depth, 2000))}=1`);
    return `query ${name} nested ${depth} deep`;
  },
  // Duplicate query parameters (each one twice, with different values).
  (op, parts, { prng }) => {
    const names = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    if (!names.length) return null;
    const name = prng.pick(names);
    const existing = parts.query.find(([k]) => k === name)?.[1] ?? '1';
    parts.query.push([name, existing], [name, prng.pick(['2', 'other', '', HUGE.slice(0, 300)])]);
    return `duplicate query.${name}`;
  },
  // Bad percent-encoding in a path parameter or in the query string.
  (op, parts, { prng }) => {
    const enc = prng.pick(BAD_ENCODINGS);
    const pathNames = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    if (pathNames.length && prng.chance(0.6)) {
      const name = prng.pick(pathNames);
      parts.pathValues[name] = `a${enc}b`;
      parts.rawPath.add(name);
      return `path.${name} with ${enc}`;
    }
    const name = op.parameters.find((p) => p.in === 'query')?.name ?? 'q';
    parts.rawQuery.push(prng.chance(0.5) ? `${name}=${enc}` : `${enc}=1`);
    return `query with ${enc}`;
  },
  // An over-long path parameter (the router limits them).
  (op, parts, { prng }) => {
    const names = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    if (!names.length) return null;
    const name = prng.pick(names);
    const length = prng.pick([101, 1000, 8000]);
    parts.pathValues[name] = 'a'.repeat(length);
    return `path.${name} ${length} chars long`;
  },
  // A body of the wrong kind: wrong content type, malformed or non-object JSON.
  (_op, parts, { prng }) => {
    const choice = prng.int(0, 7);
    const json = parts.body === undefined ? '{"a":1}' : JSON.stringify(parts.body);
    const cases: Array<[string | undefined, string, string]> = [
      ['text/plain', json, 'JSON sent as text/plain'],
      ['application/x-www-form-urlencoded', 'a=1&b=%C0%AE', 'a form body'],
      ['application/json', '{"a":', 'truncated JSON'],
      ['application/json', '[1,2,3]', 'a JSON array'],
      ['application/json', '"text"', 'a JSON string'],
      ['application/json', '1e400', 'a JSON number out of range'],
      ['application/json; charset=utf-16', json, 'a JSON body with a foreign charset'],
      ['multipart/form-data; boundary=zz', '--zz\r\nbroken', 'a broken multipart body'],
    ];
    const [type, body, label] = cases[choice]!;
    parts.rawBody = body;
    parts.contentType = type;
    return label;
  },
  // Unknown extra fields and parameters.
  (_op, parts, { prng }) => {
    const extra = { ['fuzz' + prng.int(0, 99)]: prng.pick(HOSTILE_VALUES), id: prng.uuid() };
    if (parts.body && typeof parts.body === 'object' && !Array.isArray(parts.body)) {
      parts.body = { ...(parts.body as object), ...extra };
    } else parts.query.push(['unexpected', 'value'], ['organizationId', prng.uuid()]);
    return 'extra fields';
  },
];

function multipartPayload(fields: Record<string, unknown>, boundary: string): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    lines.push(
      `--${boundary}`,
      `Content-Disposition: form-data; name="${name}"`,
      '',
      asText(value),
    );
  }
  lines.push(`--${boundary}--`, '');
  return lines.join('\r\n');
}

/** Percent-encodes like encodeURIComponent, but also text with lone surrogates (as UTF-8 of U+FFFD). */
function pct(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text, 'utf8')]
      .map((b) => `%${b.toString(16).padStart(2, '0')}`)
      .join('');
  }
}

function build(op: Operation, parts: Parts, label: string): FuzzRequest {
  let path = op.path;
  for (const [name, value] of Object.entries(parts.pathValues)) {
    const text = parts.rawPath.has(name)
      ? value
      : name === '*'
        ? value.split('/').map(pct).join('/')
        : pct(value);
    path = path.replace(`{${name}}`, text);
  }
  const query = [...parts.query.map(([k, v]) => `${pct(k)}=${pct(v)}`), ...parts.rawQuery];
  const headers: Record<string, string> = {};
  let payload: string | Buffer | undefined;
  if (parts.rawBody !== undefined) {
    payload = parts.rawBody;
    if (parts.contentType) headers['content-type'] = parts.contentType;
  } else if (parts.body !== undefined && op.multipartFields && typeof parts.body === 'object') {
    const boundary = 'fuzzboundary';
    payload = multipartPayload(parts.body as Record<string, unknown>, boundary);
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
  } else if (parts.body !== undefined) {
    payload = JSON.stringify(parts.body);
    headers['content-type'] = 'application/json';
  }
  return {
    label,
    method: op.method,
    url: query.length ? `${path}?${query.join('&')}` : path,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  };
}

/**
 * `budget` requests for one operation: a valid-looking baseline, the same with malformed ids,
 * then random mutations of it, all drawn from `ctx.prng` (deterministic for a given seed).
 */
export function generateRequests(op: Operation, ctx: FuzzContext, budget: number): FuzzRequest[] {
  const out: FuzzRequest[] = [build(op, baseline(op, ctx, 'known'), 'baseline')];
  if (op.parameters.some((p) => p.in === 'path' && p.name !== 'orgId' && p.name !== '*')) {
    out.push(build(op, baseline(op, ctx, 'unknown'), 'unknown ids'));
    out.push(build(op, baseline(op, ctx, 'malformed'), 'malformed ids'));
  }
  let attempts = 0;
  while (out.length < budget && attempts++ < budget * 10) {
    const roll = ctx.prng.next();
    const parts = baseline(op, ctx, roll < 0.5 ? 'known' : roll < 0.8 ? 'unknown' : 'malformed');
    const mutate = ctx.prng.pick(MUTATIONS);
    const label = mutate(op, parts, ctx);
    if (label === null) continue;
    // Sometimes two mutations at once.
    const second = ctx.prng.chance(0.2) ? ctx.prng.pick(MUTATIONS)(op, parts, ctx) : null;
    out.push(build(op, parts, second ? `${label}; ${second}` : label));
  }
  return out;
}
