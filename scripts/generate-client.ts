/**
 * Regenerates the TypeScript client's types from the OpenAPI document:
 *   npm run client:generate
 * `clients/typescript/openapi.json` is the document, `clients/typescript/schema.d.ts` its types
 * (openapi-typescript). test/docs/typescript-client.test.ts fails when they are out of date.
 */
import { writeFileSync } from 'node:fs';
import { CLIENT_DIR, clientTypesOf } from './client-types.ts';
import { buildOpenApiDocument } from './openapi-document.ts';

const document = await buildOpenApiDocument();
writeFileSync(`${CLIENT_DIR}/openapi.json`, `${JSON.stringify(document, null, 2)}\n`);
writeFileSync(`${CLIENT_DIR}/schema.d.ts`, await clientTypesOf(document));
console.log(`wrote ${CLIENT_DIR}/openapi.json and schema.d.ts`);
