// `npm run client:generate`: writes the OpenAPI document the server serves at /api/docs/json
// and the client package's types generated from it (packages/client). No server is started.
import { writeFile } from 'node:fs/promises';
import {
  CLIENT_DIR,
  clientFiles,
  GENERATED_FILES,
  openApiDocument,
} from '../src/test/openapi-client.js';

const files = await clientFiles(await openApiDocument());
for (const file of GENERATED_FILES) {
  await writeFile(`${CLIENT_DIR}${file}`, files[file]);
  console.log(`wrote packages/client/${file}`);
}
