import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { startTestApp, type TestApp } from '../support/app';
import { createCast, PASSWORD, type TestUser } from '../support/factories';

/**
 * The server-side permission table (docs/product-spec.md section 6, docs/api.md). Every route the
 * running app exposes must appear here: a new route without an entry fails this suite.
 */
/** 'cds-client': CDS Hooks service calls take a registered client's JWT, never a user's token (issue 11). */
type Access = 'public' | 'signed-in' | 'cds-client' | Array<'pcp' | 'admin' | 'super_admin'>;
const ADMIN: Access = ['admin', 'super_admin'];
const CLINICAL: Access = ['pcp', 'admin', 'super_admin'];

export const MATRIX: Record<string, Access> = {
  'GET /api/health': 'public',
  'GET /api/docs': 'public',
  'GET /api/docs/': 'public',
  'GET /api/docs/index.html': 'public',
  'GET /api/docs/LICENSE': 'public',
  'GET /api/docs/swagger-ui-init.js': 'public',
  'GET /api/docs/docs/swagger-ui-init.js': 'public',
  'GET /api/docs-json': 'public',
  'GET /api/docs-yaml': 'public',
  'POST /api/auth/signup': 'public',
  'POST /api/auth/token': 'public',
  'GET /api/auth/google': 'public',
  'GET /api/auth/google/callback': 'public',
  'POST /api/auth/logout': 'signed-in',
  'GET /api/auth/user': 'signed-in',
  'PUT /api/auth/user': 'signed-in',
  'GET /api/me': 'signed-in',
  'PATCH /api/me/profile': 'signed-in',
  'POST /api/me/access-requests': 'signed-in',
  'GET /api/me/access-requests': 'signed-in',
  'GET /api/users': ADMIN,
  'GET /api/users/:id': ADMIN,
  'PUT /api/users/:id/role': ADMIN,
  'GET /api/stats': ADMIN,
  'GET /api/activity': ADMIN,
  'POST /api/invitations': ADMIN,
  'GET /api/invitations': ADMIN,
  'DELETE /api/invitations/:id': ADMIN,
  'GET /api/invitations/by-token/:token': 'public',
  'POST /api/invitations/accept': 'public',
  'GET /api/approvals': ADMIN,
  'GET /api/approvals/:id': ADMIN,
  'POST /api/approvals/:id/approve': ADMIN,
  'POST /api/approvals/:id/reject': ADMIN,
  'GET /api/parameters': 'signed-in',
  'GET /api/parameters/templates': 'signed-in',
  'POST /api/parameters/templates/seed': ADMIN,
  'POST /api/parameters/from-template': ADMIN,
  'GET /api/parameters/:id': 'signed-in',
  'POST /api/parameters': ADMIN,
  'PUT /api/parameters/:id': ADMIN,
  'DELETE /api/parameters/:id': ADMIN,
  'POST /api/parameters/:id/clone': ADMIN,
  'PATCH /api/parameters/:id/activation': ADMIN,
  'GET /api/parameter-changes': ADMIN,
  'GET /api/parameter-changes/:id': ADMIN,
  'POST /api/fhir': ADMIN,
  'GET /api/value-sets': ADMIN,
  'POST /api/fhir/\\$import': ADMIN,
  'GET /api/jobs': ADMIN,
  'GET /api/jobs/:id': ADMIN,
  'POST /api/measure-runs': ADMIN,
  'GET /api/measure-runs': ADMIN,
  'GET /api/measure-runs/:id': ADMIN,
  'GET /api/measures/conformance': ADMIN,
  'GET /api/measures/designs': ADMIN,
  'GET /api/measures/designs/:id': ADMIN,
  'POST /api/measures/designs/:id/impact': ADMIN,
  'GET /api/measures/designs/:id/versions': ADMIN,
  'GET /api/measures/designs/:id/versions/:version': ADMIN,
  'PUT /api/measures/designs/:id/draft': ADMIN,
  'DELETE /api/measures/designs/:id/draft': ADMIN,
  'POST /api/measures/designs/:id/draft/publish': ADMIN,
  'GET /api/rule-sets': ADMIN,
  'GET /api/rule-sets/templates': ADMIN,
  'POST /api/rule-sets/from-template': ADMIN,
  'GET /api/rule-sets/:id': ADMIN,
  'POST /api/rule-sets': ADMIN,
  'PUT /api/rule-sets/:id': ADMIN,
  'DELETE /api/rule-sets/:id': ADMIN,
  'PATCH /api/rule-sets/:id/activation': ADMIN,
  'POST /api/rule-sets/:id/publish': ADMIN,
  'GET /api/rule-sets/:id/publish-check': ADMIN,
  'POST /api/rule-sets/:id/impact-preview': ADMIN,
  'GET /api/rule-sets/:id/impact-preview/:previewId': ADMIN,
  'GET /api/rule-sets/:id/versions/:number/impact-preview': ADMIN,
  'POST /api/rule-sets/:id/run': ADMIN,
  'GET /api/rule-sets/:id/boundary-vignettes': ADMIN,
  'GET /api/rule-sets/:id/test-cases': ADMIN,
  'POST /api/rule-sets/:id/test-cases': ADMIN,
  'PUT /api/rule-sets/:id/test-cases/:caseId': ADMIN,
  'DELETE /api/rule-sets/:id/test-cases/:caseId': ADMIN,
  'GET /api/rule-sets/:id/versions': ADMIN,
  'GET /api/rule-sets/:id/versions/:number': ADMIN,
  'GET /api/rule-sets/:id/diff': ADMIN,
  'GET /api/rule-sets/:id/analysis': ADMIN,
  'POST /api/rule-sets/:id/analysis': ADMIN,
  'GET /api/rules': ADMIN,
  'GET /api/rules/:id': ADMIN,
  'POST /api/rules': ADMIN,
  'PUT /api/rules/:id': ADMIN,
  'DELETE /api/rules/:id': ADMIN,
  'POST /api/rules/:id/clone': ADMIN,
  'POST /api/rules/:id/test': ADMIN,
  'GET /api/rules/:id/test-cases': ADMIN,
  'POST /api/rules/:id/test-cases': ADMIN,
  'PUT /api/rules/:id/test-cases/:caseId': ADMIN,
  'DELETE /api/rules/:id/test-cases/:caseId': ADMIN,
  'POST /api/polish-question': 'signed-in',
  'POST /api/parameters/:id/polish': ADMIN,
  'GET /api/polish/status': ADMIN,
  'POST /api/polish/dashboard-link': ADMIN,
  'POST /api/assessments': CLINICAL,
  'GET /api/assessments': CLINICAL,
  'GET /api/assessments/summary': CLINICAL,
  'GET /api/assessments/:id': CLINICAL,
  'POST /api/assessments/:id/answers': CLINICAL,
  'POST /api/chat-sessions': 'signed-in',
  'GET /api/chat-sessions': 'signed-in',
  'GET /api/chat-sessions/:id': 'signed-in',
  'POST /api/chat-sessions/:id/answers': 'signed-in',
  'POST /api/chat-sessions/:id/choice': 'signed-in',
  'GET /api/rule-sets/:id/analytics': ADMIN,
  'GET /api/cds-services': 'public',
  'POST /api/cds-services/:id': 'cds-client',
  'POST /api/cds-services/:id/feedback': 'cds-client',
  'GET /api/cds-clients': ADMIN,
  'GET /api/cds-clients/:id': ADMIN,
  'POST /api/cds-clients': ADMIN,
  'PUT /api/cds-clients/:id': ADMIN,
  'DELETE /api/cds-clients/:id': ADMIN,
  'POST /api/cds-prefill/redeem': CLINICAL,
  // FHIR out and the adaptive questionnaire (issue 11): clinical users with their session token.
  'GET /api/assessments/:id/fhir': CLINICAL,
  'GET /api/rule-sets/:id/versions/:number/fhir': ADMIN,
  'GET /api/fhir/Questionnaire/:id': CLINICAL,
  'POST /api/fhir/Questionnaire/:id/\\$next-question': CLINICAL,
  'GET /api/fhir/Measure': CLINICAL,
  'GET /api/fhir/Measure/:id': CLINICAL,
  'GET /api/fhir/Measure/:id/\\$evaluate-measure': CLINICAL,
  'POST /api/fhir/Measure/:id/\\$evaluate-measure': CLINICAL,
  'GET /api/panel': CLINICAL,
  'GET /api/panel/trend': CLINICAL,
  'GET /api/panel/patients/:patientId': CLINICAL,
  'POST /api/panel/patients/:patientId/assessment-prefill': CLINICAL,
};
void CLINICAL;

type Persona = 'anonymous' | 'none' | 'pcp' | 'admin' | 'super_admin';
const PERSONAS: Persona[] = ['anonymous', 'none', 'pcp', 'admin', 'super_admin'];

let t: TestApp;
let users: Record<Exclude<Persona, 'anonymous'>, TestUser>;

/** Served by SwaggerModule on the HTTP adapter, not by a controller: listed here, requested below like the rest. */
const SWAGGER_ROUTES = new Set(Object.keys(MATRIX).filter((r) => /^GET \/api\/docs([-/]|$)/.test(r)));

const VERB: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'GET',
  [RequestMethod.POST]: 'POST',
  [RequestMethod.PUT]: 'PUT',
  [RequestMethod.DELETE]: 'DELETE',
  [RequestMethod.PATCH]: 'PATCH',
};

/**
 * Every controller route of the running app, read from Nest's own route metadata (the same on the
 * Express and the Fastify adapter), as "METHOD /api/path" with Nest's path syntax (`:id`, `\$`).
 */
function appRoutes(): string[] {
  const join = (...parts: string[]) => `/${parts.join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  const routes = new Set<string>();
  for (const module of t.runtime.app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (!metatype) continue;
      const prefixes = [Reflect.getMetadata(PATH_METADATA, metatype) as string | string[] | undefined].flat();
      const proto = metatype.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        const verb = VERB[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        if (paths === undefined || !verb) continue;
        for (const prefix of prefixes) for (const path of [paths].flat()) routes.add(`${verb} ${join('api', prefix ?? '', path)}`);
      }
    }
  }
  return [...routes];
}

async function tokenFor(persona: Persona, route: string): Promise<string | undefined> {
  if (persona === 'anonymous') return undefined;
  const u = users[persona];
  // Signing out would end the shared session: use a throwaway one.
  if (route.startsWith('POST /api/auth/logout')) {
    const s = await t.http().post('/api/auth/token?grant_type=password').send({ email: u.email, password: PASSWORD });
    return s.body.access_token;
  }
  return u.access_token;
}

function allowed(access: Access, persona: Persona): boolean {
  if (access === 'public') return true;
  if (access === 'cds-client') return false;
  if (persona === 'anonymous') return false;
  if (access === 'signed-in') return true;
  return persona !== 'none' && access.includes(persona);
}

// Both adapters by default (issue 22: the roles must hold on Fastify before it is the default);
// HTTP_ADAPTER=express|fastify runs one.
const ADAPTERS = process.env.HTTP_ADAPTER ? [process.env.HTTP_ADAPTER] : ['express', 'fastify'];

describe.each(ADAPTERS)('authorization matrix on %s', (adapter) => {
  beforeAll(async () => {
    t = await startTestApp({ HTTP_ADAPTER: adapter });
    users = await createCast(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('covers every route of the running app, and only those', () => {
    const routes = appRoutes();
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.filter((r) => !(r in MATRIX))).toEqual([]);
    expect(Object.keys(MATRIX).filter((r) => !routes.includes(r) && !SWAGGER_ROUTES.has(r))).toEqual([]);
  });

  it.each(Object.entries(MATRIX).flatMap(([route, access]) => PERSONAS.map((p) => [route, p, access] as const)))(
    '%s as %s',
    async (route, persona, access) => {
      const [method, path] = route.split(' ');
      // scope=local: the default (global) would end the persona's shared session too.
      // A literal '$' (FHIR operations) is escaped in Express route paths.
      const url =
        path.replace(/:id/g, '00000000-0000-4000-8000-000000000000').replace(/\\\$/g, '$') +
        (path === '/api/auth/logout' ? '?scope=local' : '');
      const token = await tokenFor(persona, route);
      let req = t.http()[method.toLowerCase() as 'get'](url);
      if (token) req = req.set('Authorization', `Bearer ${token}`);
      const res = method === 'GET' ? await req : await req.send({});
      if (access === 'cds-client') {
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('invalid_client_jwt');
      } else if (allowed(access, persona)) {
        expect([401, 403]).not.toContain(res.status);
      } else {
        expect(res.status).toBe(persona === 'anonymous' ? 401 : 403);
        expect(res.body.code).toBe(persona === 'anonymous' ? 'unauthorized' : 'forbidden');
      }
      if (res.status >= 500) expect(res.body.code).toBe('oauth_not_configured');
    },
  );
});
