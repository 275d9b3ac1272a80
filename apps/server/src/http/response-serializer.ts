import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = { [key: string]: unknown };
type RouteSchema = Parameters<FastifySerializerCompiler<unknown>>[0];

/**
 * Answers are written by a serializer compiled from each route's response schema
 * (fast-json-stringify), not by zod's encode followed by `JSON.stringify`: on the posts page those
 * two were 15 % of the server's CPU. The compiled serializer writes only the properties
 * the schema declares, in its order, as zod's encode did. A schema it cannot take (one zod cannot
 * describe as JSON schema) keeps zod's serializer.
 *
 * With `check` (the test suite), every answer is also encoded by zod, which validates it; an answer
 * zod refuses fails as before, and one that reads differently from the compiled one is an error
 * naming the route, so every test that reads an answer also checks the two agree.
 *
 * A route's serializer is compiled when it first answers: compiling all of them was an eighth of
 * the embedded start's CPU. The test suite compiles each when its route is added, so a
 * schema that cannot be compiled fails every test that builds the app.
 */
export function responseSerializerCompiler(options: {
  check: boolean;
}): FastifySerializerCompiler<unknown> {
  return (route) => {
    if (options.check) return compile(route, true);
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => (serialize ??= compile(route, false))(data);
  };
}

function compile(route: RouteSchema, check: boolean): (data: unknown) => string {
  const viaZod = zodSerializerCompiler(route as never) as (data: unknown) => string;
  const schema = fastSchemaOf(route.schema);
  if (!schema) return viaZod;
  const stringify = fastJson(schema) as (data: unknown) => string;
  if (!check) return stringify;
  return (data) => {
    const expected = viaZod(data);
    const written = stringify(data);
    if (written !== expected && !isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
      throw new Error(
        `The compiled serializer of ${route.method} ${route.url} (${String(route.httpStatus)}) ` +
          `wrote ${written} where zod wrote ${expected}`,
      );
    }
    return written;
  };
}

/** The route's zod schema as a JSON schema fast-json-stringify reads as zod would, or null. */
export function fastSchemaOf(schema: RouteSchema['schema']): JsonSchema | null {
  if (!(schema instanceof z.ZodType)) return null;
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, {
      target: 'draft-07',
      io: 'output',
      unrepresentable: 'throw',
      cycles: 'ref',
      reused: 'inline',
    }) as JsonSchema;
  } catch {
    return null;
  }
  return simplify(json) as JsonSchema;
}

/** Keys whose value is a map of names to schemas (not a schema). */
const SCHEMA_MAPS = new Set(['properties', 'definitions', 'patternProperties']);
/**
 * `format` makes fast-json-stringify write dates its own way and adds nothing to a string it
 * writes as is; `$schema` and texts for people are not needed to write an answer.
 */
const DROPPED = new Set(['format', '$schema', 'description', 'title', 'examples', 'default']);

/**
 * zod's JSON schema adjusted to how fast-json-stringify reads it: an object that allows no other
 * property simply has its properties written (a union's branch still matches an object that carries
 * more, as zod's did), and `X | null` is written the way fast-json-stringify knows as nullable
 * (else it writes a null string as "").
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key)) continue;
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = SCHEMA_MAPS.has(key)
      ? Object.fromEntries(
          Object.entries(value as JsonSchema).map(([name, child]) => [name, simplify(child)]),
        )
      : simplify(value);
  }
  return nullableOf(out);
}

function nullableOf(schema: JsonSchema): JsonSchema {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || Object.keys(schema).length !== 1) return schema;
  const isNull = (branch: JsonSchema) => branch.type === 'null' && Object.keys(branch).length === 1;
  const others = (branches as JsonSchema[]).filter((branch) => !isNull(branch));
  if (others.length !== 1 || others.length === branches.length) return schema;
  const [only] = others as [JsonSchema];
  if (typeof only.type !== 'string' || only.anyOf || only.oneOf || only.allOf || only.$ref) {
    return schema;
  }
  if (only.type === 'object' || only.type === 'array') return { ...only, nullable: true };
  if ('const' in only || 'enum' in only) return schema;
  return { ...only, type: [only.type, 'null'] };
}
