import { describe, expect, it } from 'vitest';
import { InviteRequestSchema, UpdateMemberRequestSchema } from './team.js';

describe('unknown permissions', () => {
  it('are named in the message when short', () => {
    const result = InviteRequestSchema.safeParse({ email: 'a@b.test', permissions: ['post:fly'] });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe('Unknown permission: post:fly.');
  });

  it('are cut short in the message when long, so the answer never echoes a huge input', () => {
    const huge = 'x'.repeat(100_000);
    const result = UpdateMemberRequestSchema.safeParse({
      roleId: '00000000-0000-4000-8000-000000000000',
      permissions: [huge],
    });
    expect(result.success).toBe(false);
    const message = result.error!.issues[0]!.message;
    expect(message).toBe(`Unknown permission: ${'x'.repeat(40)}… (100000 characters).`);
  });

  it('describe values that are not text by their type', () => {
    const result = InviteRequestSchema.safeParse({ email: 'a@b.test', permissions: [{ a: 1 }] });
    expect(result.error!.issues[0]!.message).toBe('Unknown permission: a value of type object.');
  });
});
