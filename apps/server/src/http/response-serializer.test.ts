import { PostsResponseSchema } from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fastSchemaOf, responseSerializerCompiler } from './response-serializer.js';

const compile = (schema: z.ZodType, check = false) =>
  responseSerializerCompiler({ check })({
    schema,
    method: 'GET',
    url: '/test',
    httpStatus: '200',
  } as never) as (data: unknown) => string;

/** What zod's encode followed by JSON.stringify writes (the serializer it replaces). */
const viaZod = (schema: z.ZodType, data: unknown) =>
  JSON.stringify(z.encode(schema, data as never));

const post = (overrides: Record<string, unknown> = {}) => ({
  id: 'p1',
  organizationId: 'o1',
  title: null,
  status: 'scheduled',
  content: { default: 'Hello', x: 'Hello X' },
  platforms: [{ id: 'x', name: 'X', internal: 'dropped' }],
  accounts: [
    {
      id: null,
      platformId: 'x',
      platformName: 'X',
      name: 'Herald',
      username: null,
      pictureUrl: null,
      connected: false,
    },
  ],
  platformPosts: [
    {
      id: 't1',
      platformId: 'x',
      platformName: 'X',
      status: 'QUEUED',
      externalId: null,
      permalink: null,
      error: null,
      publishedAt: null,
      dueAt: '2026-11-27T12:00:00.000Z',
      integrationId: 'i1',
      accountName: 'Herald',
      accountUsername: '@herald',
      accountPictureUrl: null,
      tiktok: null,
      secretToken: 'must not be written',
    },
  ],
  media: [],
  scheduledAt: '2026-11-27T12:00:00.000Z',
  publishedAt: null,
  createdAt: '2026-11-27T11:00:00.000Z',
  updatedAt: '2026-11-27T11:00:00.000Z',
  creator: { id: 'u1', displayName: null },
  linkTracking: null,
  ...overrides,
});

describe('the compiled response serializer', () => {
  it('writes the posts page exactly as zod did: nulls kept, undeclared keys left out, either kind of text', () => {
    const page = {
      status: 'success',
      data: { posts: [post(), post({ id: 'p2', content: 'One text for all', creator: null })] },
      meta: { page: 1, pageSize: 20, totalCount: 2 },
    };
    const written = compile(PostsResponseSchema)(page);
    expect(written).toBe(viaZod(PostsResponseSchema, page));
    expect(written).not.toContain('secretToken');
    expect(written).not.toContain('internal');
    const parsed = JSON.parse(written) as {
      data: { posts: { content: unknown; title: unknown }[] };
    };
    expect(parsed.data.posts[0]?.title).toBeNull();
    expect(parsed.data.posts[1]?.content).toBe('One text for all');
  });

  it('picks the branch of a union that the value matches, as zod does', () => {
    const schema = z.object({
      events: z.array(
        z.union([
          z.object({ kind: z.literal('comment'), text: z.string() }),
          z.object({ kind: z.literal('like'), count: z.number().int() }),
        ]),
      ),
      note: z.string().nullable(),
      size: z.number().nullable(),
      tags: z.array(z.string()).nullable(),
    });
    const data = {
      events: [
        { kind: 'like', count: 3, extra: true },
        { kind: 'comment', text: 'hi' },
      ],
      note: null,
      size: null,
      tags: null,
    };
    expect(compile(schema)(data)).toBe(viaZod(schema, data));
    expect(JSON.parse(compile(schema)(data))).toEqual({
      events: [
        { kind: 'like', count: 3 },
        { kind: 'comment', text: 'hi' },
      ],
      note: null,
      size: null,
      tags: null,
    });
  });

  it('keeps zod for a schema JSON schema cannot describe', () => {
    expect(fastSchemaOf(z.object({ at: z.date() }))).toBeNull();
    const schema = z.object({ at: z.date() });
    const at = new Date('2026-11-27T12:00:00.000Z');
    expect(compile(schema)({ at })).toBe(JSON.stringify({ at }));
  });

  it('checking, refuses an answer zod refuses (the suite keeps validating every answer)', () => {
    const schema = z.object({ count: z.number().int() });
    expect(() => compile(schema, true)({ count: 'three' })).toThrow();
    expect(compile(schema, true)({ count: 3 })).toBe('{"count":3}');
  });
});
