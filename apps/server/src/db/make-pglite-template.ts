// Build step (scripts/build.mjs): writes dist/pglite-template.tar.gz (see pglite-template.ts).
import { pgliteTemplatePath } from '../lib/paths.js';
import { writePgliteTemplate } from './pglite-template.js';

await writePgliteTemplate();
console.log(`embedded database template written: ${pgliteTemplatePath()}`);
