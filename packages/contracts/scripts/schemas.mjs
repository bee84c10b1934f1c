// Emits dist/schemas.json: a JSON Schema for every type the contracts export, generated from the
// TypeScript source, so the OpenAPI document carries the response shapes the controllers declare
// (issue 12). Keys are OpenAPI component names; references point at #/components/schemas/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';

// The TypeScript the generator parses with (its own copy), so node kinds match.
const ts = createRequire(import.meta.resolve('ts-json-schema-generator'))('typescript');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const out = join(root, 'dist', 'schemas.json');
const started = Date.now();

const generator = createGenerator({
  path: join(src, '*.ts'),
  tsconfig: join(root, 'tsconfig.build.json'),
  type: '*',
  expose: 'export',
  skipTypeCheck: true, // tsc checks the same files in the same build
  additionalProperties: true,
});
const { definitions = {} } = generator.createSchema('*');

// OpenAPI component names allow [A-Za-z0-9._-] only (generics come out as `Changed<EngineRule>`).
const componentName = (name) => decodeURIComponent(name).replace(/[^A-Za-z0-9._-]/g, '_');
const refsOf = (schema) => [...JSON.stringify(schema).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)].map((m) => decodeURIComponent(m[1]));

// The contracts' own exported types, and what they reference (engine types they re-use); exported
// functions, and the engine's other exports the program also sees, are left out.
const pending = generator
  .getRootNodes('*')
  .filter((node) => node.getSourceFile().fileName.startsWith(src) && !node.getSourceFile().fileName.endsWith('.spec.ts'))
  .filter((node) => ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node))
  .map((node) => node.name.text);
const kept = new Set();
while (pending.length) {
  const name = pending.pop();
  if (kept.has(name) || !definitions[name]) continue;
  kept.add(name);
  pending.push(...refsOf(definitions[name]));
}

const schemas = {};
for (const name of [...kept].sort()) {
  schemas[componentName(name)] = JSON.parse(
    JSON.stringify(definitions[name]).replace(
      /"\$ref":"#\/definitions\/([^"]+)"/g,
      (_, ref) => `"$ref":"#/components/schemas/${componentName(ref)}"`,
    ),
  );
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(schemas));
console.log(`@cds/contracts: ${Object.keys(schemas).length} JSON Schemas in ${Date.now() - started} ms`);
