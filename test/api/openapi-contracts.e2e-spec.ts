import { startTestApp, type TestApp } from '../support/app';

/**
 * Issue 12: the OpenAPI document carries the response types the controllers declare from
 * @cds/contracts (JSON Schemas generated from the TypeScript source at build time).
 */
interface Schema {
  $ref?: string;
  type?: string | string[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}
interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Routes documented without a JSON response schema, each with the reason. New routes must be annotated. */
const WITHOUT_SCHEMA: Record<string, string> = {
  'POST /api/auth/logout': '204, no body',
  'GET /api/auth/google': 'redirect to Google',
  'GET /api/auth/google/callback': 'redirect back to the app',
  'DELETE /api/cds-clients/{id}': '204, no body',
  'DELETE /api/measures/designs/{id}/draft': '204, no body',
  'POST /api/polish/dashboard-link': 'a one-time Bull Board URL',
};

let t: TestApp;
let doc: Document;
beforeAll(async () => {
  t = await startTestApp();
  const res = await t.http().get('/api/docs-json');
  expect(res.status).toBe(200);
  doc = res.body as Document;
});
afterAll(async () => {
  await t?.close();
});

const schemas = () => doc.components?.schemas ?? {};
const refName = (schema: Schema | undefined) => (schema?.items ?? schema)?.$ref?.replace('#/components/schemas/', '');

function routes(): { route: string; schema: Schema | undefined; contentTypes: string[] }[] {
  const out: { route: string; schema: Schema | undefined; contentTypes: string[] }[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const success = Object.entries(operation.responses ?? {}).find(([status]) => /^2\d\d$/.test(status))?.[1];
      const content = success?.content ?? {};
      out.push({
        route: `${method.toUpperCase()} ${path}`,
        schema: Object.values(content).find((c) => c.schema)?.schema,
        contentTypes: Object.keys(content),
      });
    }
  }
  return out;
}

it('every JSON route names a response schema that exists in components', () => {
  const dangling = routes()
    .filter((r) => r.schema)
    .map((r) => ({ route: r.route, name: refName(r.schema) }))
    .filter((r) => !r.name || !schemas()[r.name]);
  expect(dangling).toEqual([]);
  // …and the schemas' own references resolve too.
  const refs = [...JSON.stringify(schemas()).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  expect(refs.filter((name) => !schemas()[name])).toEqual([]);
});

it('routes without a response schema are exactly the allow-listed ones', () => {
  const without = routes()
    .filter((r) => !r.schema)
    .map((r) => r.route)
    .sort();
  expect(without).toEqual(Object.keys(WITHOUT_SCHEMA).sort());
});

it('carries the contract fields: an assessment has its findings, a list of assessments is an array of them', () => {
  const assessment = schemas().AssessmentJson;
  expect(assessment?.properties?.findings).toEqual({ type: 'array', items: { $ref: '#/components/schemas/FindingJson' } });
  expect(assessment?.required).toEqual(expect.arrayContaining(['id', 'findings', 'is_completed']));
  expect(Object.keys(schemas().FindingJson?.properties ?? {})).toEqual(expect.arrayContaining(['rule_id', 'severity']));

  const byRoute = new Map(routes().map((r) => [r.route, r.schema]));
  expect(byRoute.get('GET /api/assessments/{id}')).toEqual({ $ref: '#/components/schemas/AssessmentJson' });
  expect(byRoute.get('GET /api/assessments')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/AssessmentJson' } });
  // A created resource documents its type under 201, an action answering 200 under 200.
  expect(doc.paths['/api/rules']?.post?.responses?.['201']?.content?.['application/json']?.schema).toEqual({
    $ref: '#/components/schemas/RuleJson',
  });
  expect(doc.paths['/api/auth/token']?.post?.responses?.['200']?.content?.['application/json']?.schema).toEqual({
    $ref: '#/components/schemas/SessionJson',
  });
});

it('documents the CDS Hooks bodies, and the FHIR routes as application/fhir+json', () => {
  const byRoute = new Map(routes().map((r) => [r.route, r]));
  expect(byRoute.get('GET /api/cds-services')?.schema).toEqual({ $ref: '#/components/schemas/CdsServicesJson' });
  expect(byRoute.get('POST /api/cds-services/{id}')?.schema).toEqual({ $ref: '#/components/schemas/CdsHookResponseJson' });
  expect(Object.keys(schemas().CdsCardJson?.properties ?? {})).toEqual(
    expect.arrayContaining(['uuid', 'summary', 'indicator', 'source', 'detail', 'links']),
  );
  for (const route of [
    'GET /api/assessments/{id}/fhir',
    'GET /api/rule-sets/{id}/versions/{number}/fhir',
    'GET /api/fhir/Questionnaire/{id}',
    'POST /api/fhir/Questionnaire/{id}/$next-question',
  ]) {
    expect({ route, contentTypes: byRoute.get(route)?.contentTypes }).toEqual({ route, contentTypes: ['application/fhir+json'] });
  }
  expect(byRoute.get('GET /api/assessments/{id}/fhir')?.schema).toEqual({ $ref: '#/components/schemas/FhirBundleJson' });
  // Every other route with a schema answers application/json.
  const other = routes().filter((r) => r.schema && !r.route.includes('fhir') && r.contentTypes.join() !== 'application/json');
  expect(other).toEqual([]);
});
