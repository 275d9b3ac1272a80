import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Value imports between the server's production files form no cycle: a cycle makes what a file
 * sees at load time depend on which file of the loop was imported first. Type-only imports are
 * erased and do not count; the drizzle schema's tables refer to each other lazily and are left
 * out.
 */
const src = fileURLToPath(new URL('.', import.meta.url));

function productionFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : productionFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/** The relative modules a source imports or re-exports as values. */
export function valueImports(file: string, source: string): string[] {
  const found: string[] = [];
  const statements = /^(?:import|export)\s+(?!type\s)([^;]*?)\s+from\s+'(\.[^']+)'/gms;
  for (const [, names, target] of source.matchAll(statements)) {
    const list = names!.trim();
    const onlyTypes =
      /^\{[^}]*\}$/.test(list) &&
      list
        .slice(1, -1)
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)
        .every((n) => n.startsWith('type '));
    if (!onlyTypes) found.push(resolve(dirname(file), target!.replace(/\.js$/, '.ts')));
  }
  return found;
}

/** Strongly connected groups of more than one file (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return groups;
}

describe('server import cycles', () => {
  it('finds a cycle of value imports and ignores type-only ones', () => {
    const a = '/s/a.ts';
    const b = '/s/b.ts';
    const graph = new Map([
      [a, valueImports(a, "import { b } from './b.js';\n")],
      [b, valueImports(b, "import { a } from './a.js';\n")],
    ]);
    expect(cycles(graph)).toHaveLength(1);
    graph.set(
      b,
      valueImports(b, "import type { A } from './a.js';\nimport { type B } from './a.js';\n"),
    );
    expect(cycles(graph)).toEqual([]);
  });

  it('has none among production files', () => {
    const graph = new Map<string, string[]>();
    for (const file of productionFiles(src)) {
      if (file.includes(`${join(src, 'db', 'schema')}`)) continue;
      graph.set(file, valueImports(file, readFileSync(file, 'utf8')));
    }
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph).map((group) => group.map((f) => relative(src, f)).sort())).toEqual([]);
  });
});
