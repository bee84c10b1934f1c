import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ApiExtension } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The OpenAPI document carries the response types the controllers declare from @cds/contracts
 * (issue 12). Nest cannot reflect TypeScript interfaces, so @cds/contracts' build generates their
 * JSON Schemas (dist/schemas.json) and each route names its contract type here; `withContractSchemas`
 * puts the schemas in components and the named one on the route's success response.
 */
const EXTENSION = 'x-contract-response';

interface ContractRef {
  name: string;
  array: boolean;
  contentType: string;
}

/**
 * The route's body is the contract type `name` (e.g. 'AssessmentJson'), or an array of it with
 * `{ array: true }`, as `application/json` unless `contentType` names another (the FHIR routes
 * answer `application/fhir+json`).
 */
export const ContractResponse = (name: string, options: { array?: boolean; contentType?: string } = {}) =>
  ApiExtension(EXTENSION, {
    name,
    array: options.array ?? false,
    contentType: options.contentType ?? 'application/json',
  } satisfies ContractRef);

const BODY_EXTENSION = 'x-contract-body';

/**
 * The route reads a body of contract type `name` that it checks itself (no DTO for Nest to reflect:
 * CDS Hooks and FHIR bodies are the specifications' shapes). Documented as the request body, in each of
 * `contentTypes`, so the OpenAPI document (and the fuzz suite that reads it) knows every write route's input.
 */
export const ContractBody = (name: string, contentTypes: string[] = ['application/json']) =>
  ApiExtension(BODY_EXTENSION, { name, contentTypes });

let schemas: Record<string, object> | undefined;
/** The generated schemas: dist/schemas.json of @cds/contracts (`npm run build:packages` writes it). */
export function contractSchemas(): Record<string, object> {
  const file = join(dirname(require.resolve('@cds/contracts/package.json')), 'dist', 'schemas.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build:packages`);
  schemas ??= JSON.parse(readFileSync(file, 'utf8')) as Record<string, object>;
  return schemas;
}

/** Adds the contract schemas to the document and points each annotated route's success response at its type. */
export function withContractSchemas(document: OpenAPIObject): OpenAPIObject {
  const components = contractSchemas();
  document.components = { ...document.components, schemas: { ...components, ...document.components?.schemas } };
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations as Record<string, Record<string, unknown>>)) {
      const body = operation?.[BODY_EXTENSION] as { name: string; contentTypes: string[] } | undefined;
      if (body) {
        delete operation[BODY_EXTENSION];
        if (!components[body.name]) throw new Error(`@ContractBody('${body.name}'): @cds/contracts exports no such type`);
        const schema = { $ref: `#/components/schemas/${body.name}` };
        operation.requestBody = { required: true, content: Object.fromEntries(body.contentTypes.map((type) => [type, { schema }])) };
      }
      const ref = operation?.[EXTENSION] as ContractRef | undefined;
      if (!ref) continue;
      delete operation[EXTENSION];
      if (!components[ref.name]) throw new Error(`@ContractResponse('${ref.name}'): @cds/contracts exports no such type`);
      const responses = operation.responses as Record<string, { description?: string; content?: object }>;
      const status = Object.keys(responses).find((code) => /^2\d\d$/.test(code)) ?? '200';
      const item = { $ref: `#/components/schemas/${ref.name}` };
      responses[status] = {
        ...responses[status],
        description: responses[status]?.description || ref.name,
        content: { [ref.contentType]: { schema: ref.array ? { type: 'array', items: item } : item } },
      };
    }
  }
  return document;
}
