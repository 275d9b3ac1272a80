import { readFileSync } from 'node:fs';
import { ORG_ROUTE_PERMISSIONS } from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS_DOC, permissionsDoc, routeTable } from './permissions-doc.js';

describe('docs/permissions.md', () => {
  it('holds the route table as the contract has it (run `npm run docs:permissions` when not)', () => {
    const current = readFileSync(PERMISSIONS_DOC, 'utf8');
    expect(permissionsDoc(current)).toBe(current);
  });

  it('names every route with what it needs and why', () => {
    const table = routeTable();
    for (const [route, { needs, why }] of Object.entries(ORG_ROUTE_PERMISSIONS)) {
      const path = route.replace(/:(\w+)/g, '{$1}');
      const row = table.split('\n').find((line) => line.startsWith(`| \`${path}\` `));
      expect(row, route).toBeDefined();
      expect(row).toContain(needs === 'member' ? 'any member' : `\`${needs}\``);
      expect(row).toContain(why);
      expect(why.trim().length, route).toBeGreaterThan(0);
    }
  });
});
