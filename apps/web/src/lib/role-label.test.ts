import { describe, expect, it } from 'vitest';
import { roleLabel } from './role-label';

describe('roleLabel', () => {
  it('spells the built-in roles as words', () => {
    expect(roleLabel('ContentCreator')).toBe('Content Creator');
    expect(roleLabel('SocialMediaManager')).toBe('Social Media Manager');
    expect(roleLabel('CustomerSupport')).toBe('Customer Support');
    expect(roleLabel('Admin')).toBe('Admin');
  });

  it('leaves custom role names as they were written', () => {
    expect(roleLabel('Night Shift')).toBe('Night Shift');
    expect(roleLabel('contentcreator')).toBe('contentcreator');
    expect(roleLabel('toString')).toBe('toString');
  });
});
