/** The parts of the OpenAPI document (as @fastify/swagger builds it from the contract) the fuzzer reads. */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  method: string;
  /** OpenAPI path template, e.g. `/api/organizations/{orgId}/roles/{roleId}`. */
  path: string;
  summary: string;
  parameters: Parameter[];
  /** Schema of the JSON body, when the operation documents one. */
  body?: JsonSchema;
  /** Field names of a multipart body, when the summary documents one. */
  multipartFields?: string[];
  /** Response schemas by status code (JSON only). */
  responses: Record<string, JsonSchema | undefined>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace', 'query'];

/** Every operation of the document, in document order. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const summary: string = op.summary ?? '';
      const multipart = /multipart:\s*([^)]*)\)/.exec(summary)?.[1];
      const responses: Record<string, JsonSchema | undefined> = {};
      for (const [status, res] of Object.entries<any>(op.responses ?? {})) {
        responses[status] = res?.content?.['application/json']?.schema;
      }
      ops.push({
        method: method.toUpperCase(),
        path,
        summary,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
        ...(multipart ? { multipartFields: multipart.split(',').map((f) => f.trim()) } : {}),
        responses,
      });
    }
  }
  return ops;
}
