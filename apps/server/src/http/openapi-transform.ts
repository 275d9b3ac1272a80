import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The multipart form a route also takes, for the OpenAPI document only: the route reads
     * the parts itself, so nothing validates the form against it.
     */
    multipartBody?: z.ZodType;
  }
}

type Transform = typeof jsonSchemaTransform;

/** A body given per content type (`{content: {'application/json': {schema}}}`). */
function contentMap(body: unknown): Record<string, { schema: z.ZodType }> | null {
  if (typeof body !== 'object' || body === null || body instanceof z.ZodType) return null;
  const content = (body as { content?: unknown }).content;
  return typeof content === 'object' && content !== null
    ? (content as Record<string, { schema: z.ZodType }>)
    : null;
}

/** OpenAPI 3.1 describes bodies in JSON Schema 2020-12; a request body is the schema's input. */
const toJson = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });

/**
 * The zod type provider's transform, taught the bodies it leaves out: a body given per content
 * type (a route that takes JSON or a multipart form) is documented under each of its types, and
 * `multipartBody` adds the form a route reads part by part.
 */
export const openApiTransform: Transform = (document) => {
  const schema = document.schema as FastifySchema | undefined;
  const content = contentMap(schema?.body);
  const multipart = schema?.multipartBody;
  if (!schema || (!content && !multipart)) return jsonSchemaTransform(document);
  const rest: FastifySchema = { ...schema };
  delete rest.multipartBody;
  if (content) delete rest.body;
  const transformed = jsonSchemaTransform({ ...document, schema: rest });
  if (transformed.schema.hide) return transformed;
  const bodies: Record<string, { schema: unknown }> = {};
  for (const [type, entry] of Object.entries(content ?? {})) {
    bodies[type] = { schema: toJson(entry.schema) };
  }
  if (multipart) bodies['multipart/form-data'] = { schema: toJson(multipart) };
  return { ...transformed, schema: { ...transformed.schema, body: { content: bodies } } };
};
