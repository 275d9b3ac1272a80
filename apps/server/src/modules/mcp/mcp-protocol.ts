import { createHash } from 'node:crypto';
import {
  canCall,
  MCP_PROTOCOL_VERSIONS,
  MCP_TOOLS,
  ORG_ROUTE_PERMISSIONS,
  PERMISSIONS,
  type McpProtocolVersion,
  type McpToolSpec,
  type RouteAccess,
} from '@herald/contract';
import { z } from 'zod';
import { boundSentence } from '../../http/error-sentence.js';
import { AppError, isAnswerable } from '../../lib/app-error.js';
import type { Claim } from '../idempotency/idempotency.service.js';
import { TOOL_RUNS, type McpCaller, type McpDeps } from './mcp-tools.js';

/** JSON-RPC error codes the endpoint answers with. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** 2026-07-28: the request's protocol version is not one the server speaks. */
  unsupportedVersion: -32022,
} as const;

/** The revision of 2026 carries its version in every request's `_meta`; the others `initialize`. */
export const STATELESS_VERSION: McpProtocolVersion = '2026-07-28';
export const HANDSHAKE_VERSIONS = MCP_PROTOCOL_VERSIONS.filter((v) => v !== STATELESS_VERSION);
/** A request without the version header is of the first revision with this transport. */
export const DEFAULT_HEADER_VERSION: McpProtocolVersion = '2025-03-26';
export const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

export const isSupportedVersion = (v: unknown): v is McpProtocolVersion =>
  typeof v === 'string' && (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(v);

/** A JSON-RPC error answered to the request (with the HTTP status the transport gives it). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly httpStatus = 200,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const SERVER_INFO = { name: 'herald', title: 'Herald', version: '0.1.0' };
const INSTRUCTIONS =
  'Herald schedules and publishes an organization\'s social media posts. Call list_accounts first: it gives the account ids and the organization\'s time zone and current time, so relative times ("tomorrow at 5 pm") become ISO 8601 times with an offset. create_post makes a draft unless asked otherwise; publish_now and delete_post act for good.';

/** The tool list in the protocol's words: the input and output JSON Schemas come from zod. */
function describeTool(tool: McpToolSpec) {
  const schema = (s: z.ZodType, io: 'input' | 'output') => {
    const { $schema: _dialect, ...json } = z.toJSONSchema(s, { io, unrepresentable: 'any' });
    return json;
  };
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: schema(tool.input, 'input'),
    outputSchema: schema(tool.output, 'output'),
    annotations: { title: tool.title, ...tool.annotations },
  };
}
const DESCRIBED = new Map<string, ReturnType<typeof describeTool>>(
  MCP_TOOLS.map((tool) => [tool.name, describeTool(tool)]),
);

/** Whether the key may call the tool: the permission of its REST route, and never people-only. */
const mayCall = (tool: McpToolSpec, permissions: readonly string[]) =>
  !(ORG_ROUTE_PERMISSIONS[tool.route] as RouteAccess).peopleOnly &&
  canCall(tool.route, permissions);

/** The idempotency keys' storage (scoped per API key, shared with the REST routes' keys). */
export interface ToolKeyStore {
  claim(scope: string, key: string, request: string): Promise<Claim>;
  record(scope: string, key: string, statusCode: number, response: unknown): Promise<void>;
  release(scope: string, key: string): Promise<void>;
}

export interface Session {
  deps: McpDeps;
  keys: ToolKeyStore;
  caller: McpCaller;
}

type CallToolResult = {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: unknown;
  isError?: boolean;
};

/** A refusal the model can act on: the REST API's sentence, as a tool result. */
const refusal = (message: string): CallToolResult => ({
  content: [{ type: 'text', text: boundSentence(message) }],
  isError: true,
});

/** The first problem of the arguments as a sentence, as the REST API words it. */
function argumentsSentence(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The arguments are invalid.';
  const path = issue.path.join('.');
  return `The arguments are invalid: ${path ? `${path}: ` : ''}${issue.message}`;
}

function sentenceOf(error: AppError): string {
  const details = error.details as { platformValidationErrors?: unknown } | undefined;
  const extra = details?.platformValidationErrors;
  return extra ? `${error.message}\n${JSON.stringify(extra)}` : error.message;
}

/** Runs one tool call; a refusal by Herald's rules comes back as an `isError` result. */
async function callTool(
  session: Session,
  params: Record<string, unknown>,
): Promise<CallToolResult> {
  const name = params.name;
  const tool = MCP_TOOLS.find((t) => t.name === name) as McpToolSpec | undefined;
  if (typeof name !== 'string' || !tool)
    throw new RpcError(RPC.invalidParams, `Unknown tool: ${String(name)}.`);
  const { member } = session.caller;
  if (!mayCall(tool, member.permissions)) {
    const needs = (ORG_ROUTE_PERMISSIONS[tool.route] as RouteAccess).needs;
    const label = PERMISSIONS.find((p) => p.name === needs)?.label ?? needs;
    return refusal(
      `This API key does not allow this: it needs the "${label}" permission (${needs}).`,
    );
  }
  const parsed = tool.input.safeParse(params.arguments ?? {});
  if (!parsed.success) return refusal(argumentsSentence(parsed.error));
  const input = parsed.data as Record<string, unknown>;
  const key = typeof input.idempotencyKey === 'string' ? input.idempotencyKey : null;
  if (!key) return runTool(session, tool, input);

  // A retry with the same key answers the first call's result; other arguments are refused.
  const { idempotencyKey: _key, ...rest } = input;
  const fingerprint = createHash('sha256').update(JSON.stringify(rest)).digest('hex');
  const request = `MCP ${tool.name} ${fingerprint}`;
  const scope = `api-key:${session.caller.auth.apiKey!.id}`;
  const claim = await session.keys.claim(scope, key, request);
  if (claim.kind !== 'claimed' && claim.request !== request)
    return refusal(
      'This idempotencyKey was already used for another call. Use a new key for each new action.',
    );
  if (claim.kind === 'running')
    return refusal(
      'A call with this idempotencyKey is still being processed. Try again in a moment.',
    );
  if (claim.kind === 'replay') return claim.response as CallToolResult;
  let result: CallToolResult;
  try {
    result = await runTool(session, tool, input);
  } catch (error) {
    await session.keys.release(scope, key);
    throw error;
  }
  // A refusal changed nothing: the same key may try again once the arguments are corrected.
  try {
    if (result.isError) await session.keys.release(scope, key);
    else await session.keys.record(scope, key, 200, result);
  } catch (err) {
    // The result still goes out; an unrecorded key only means a retry runs again.
    session.caller.log.warn({ err }, 'could not record an MCP idempotency key');
  }
  return result;
}

async function runTool(
  session: Session,
  tool: McpToolSpec,
  input: Record<string, unknown>,
): Promise<CallToolResult> {
  try {
    const outcome = await TOOL_RUNS[tool.name as keyof typeof TOOL_RUNS](
      session.deps,
      session.caller,
      input,
    );
    // Held to the declared output schema, as REST answers are to theirs.
    const structured = tool.output.parse(outcome.result);
    return {
      content: [
        { type: 'text', text: outcome.summary },
        { type: 'text', text: JSON.stringify(structured) },
      ],
      structuredContent: structured,
    };
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500) return refusal(sentenceOf(error));
    if (isAnswerable(error)) {
      const answer = error.toAppError();
      if (answer.statusCode < 500) return refusal(sentenceOf(answer));
    }
    throw error;
  }
}

/** The tools the key may call, in the contract's order. */
const listTools = (session: Session) => ({
  tools: MCP_TOOLS.filter((tool) => mayCall(tool, session.caller.member.permissions)).map((tool) =>
    DESCRIBED.get(tool.name)!,
  ),
});

const CAPABILITIES = { tools: { listChanged: false } };

/** initialize (2025 revisions): the client's version when spoken, else the newest that has it. */
function initialize(params: Record<string, unknown>) {
  const asked = params.protocolVersion;
  const protocolVersion = (HANDSHAKE_VERSIONS as readonly unknown[]).includes(asked)
    ? (asked as McpProtocolVersion)
    : HANDSHAKE_VERSIONS[0]!;
  return {
    protocolVersion,
    capabilities: CAPABILITIES,
    serverInfo: SERVER_INFO,
    instructions: INSTRUCTIONS,
  };
}

const discover = () => ({
  supportedVersions: [...MCP_PROTOCOL_VERSIONS],
  capabilities: CAPABILITIES,
  serverInfo: SERVER_INFO,
  instructions: INSTRUCTIONS,
});

/**
 * Answers one JSON-RPC request. `stateless`: a 2026-07-28 request (its version in `_meta`),
 * whose unknown methods are answered 404 by the transport.
 */
export async function dispatch(
  session: Session,
  method: string,
  params: Record<string, unknown>,
  stateless: boolean,
): Promise<unknown> {
  switch (method) {
    case 'initialize':
      if (!stateless) return initialize(params);
      break;
    case 'ping':
      if (!stateless) return {};
      break;
    case 'server/discover':
      return discover();
    case 'tools/list':
      return listTools(session);
    case 'tools/call':
      return callTool(session, params);
  }
  throw new RpcError(
    RPC.methodNotFound,
    `Method not found: ${method}. Herald offers tools only (tools/list, tools/call).`,
    stateless ? 404 : 200,
  );
}
