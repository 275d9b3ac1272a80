#!/usr/bin/env node
// Runs the built server (npm run build -w @herald/server produces dist/cli.js).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(built)) {
  console.error(
    'herald: the server is not built yet. Run `npm run build` (or `npm start`, which builds what is missing).',
  );
  process.exit(1);
}
await import(built);
