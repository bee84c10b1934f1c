import { moduleSources } from './testing/module-sources';

/**
 * "SQL only in repositories" (docs/architecture.md, issue 12), checked on the source text of every
 * file under backend/src/modules. Repositories (`*.repository.ts`) and entities hold the database
 * access; everything else (services, controllers, processors, guards) may only open a transaction
 * (`this.db.transaction(...)`), hand its `EntityManager` (or `this.db.manager`) to a repository, and
 * name entity types.
 */
/**
 * Files allowed to break the rule, each with its reason. Remove an entry when the file is fixed: the
 * test fails for an entry that no longer breaks the rule, so the list cannot go stale.
 */
const KNOWN_EXCEPTIONS: Record<string, string> = {
  'health/health.controller.ts': "the reachability probe's `SELECT 1` asks whether PostgreSQL answers, not for data",
};

const ALLOWED_FILE = /(\.repository|\.entity|\.spec|\.e2e-spec)\.ts$/;

/** What only a repository may do, by pattern. */
const FORBIDDEN: [RegExp, string][] = [
  [/\.query\s*[<(]/, 'raw SQL (.query)'],
  [/createQueryBuilder\s*[<(]/, 'QueryBuilder (createQueryBuilder)'],
  [/\.getRepository\s*[<(]/, 'TypeORM Repository (getRepository)'],
  [/@InjectRepository\(/, 'TypeORM Repository (@InjectRepository)'],
  [/import\s*{[^}]*\bRepository\b[^}]*}\s*from\s*'typeorm'/, "TypeORM Repository (import from 'typeorm')"],
  // EntityManager calls that name an entity: m.findOne(User, …), m.save(Rule, …), m.update(Invitation, …)
  [
    /\.(find|findOne|findOneBy|findBy|findAndCount|exists|existsBy|count|countBy|save|insert|update|upsert|delete|remove|softDelete|increment|decrement|create)\(\s*[A-Z]\w*\s*[,)]/,
    'EntityManager call on an entity',
  ],
  // A DataSource held by a service is for opening transactions; anything else on it is a query.
  [/\bthis\.db\.(?!transaction\b|manager\b)\w+/, 'DataSource use other than .transaction / .manager'],
];

function violations(text: string): string[] {
  return FORBIDDEN.filter(([pattern]) => pattern.test(text)).map(([, what]) => what);
}

describe('SQL only in repositories', () => {
  const files = moduleSources(ALLOWED_FILE);

  it('finds the module sources', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.some((f) => f.file === 'auth/auth.service.ts')).toBe(true);
  });

  it('no service, controller or other non-repository file queries the database', () => {
    const offenders = files
      .filter((f) => !(f.file in KNOWN_EXCEPTIONS))
      .map((f) => ({ file: f.file, found: violations(f.text) }))
      .filter((f) => f.found.length > 0);
    expect(offenders).toEqual([]);
  });

  it('every known exception still needs to be one (remove it from the list once fixed)', () => {
    const stale = Object.keys(KNOWN_EXCEPTIONS).filter((file) => {
      const f = files.find((x) => x.file === file);
      return !f || violations(f.text).length === 0;
    });
    expect(stale).toEqual([]);
  });

  it('the patterns catch what they are meant to', () => {
    expect(violations("await m.query('SELECT 1')")).toContain('raw SQL (.query)');
    expect(violations("this.db.createQueryBuilder().from('users', 'u')")).toHaveLength(2);
    expect(violations('await m.findOne(User, { where: { id } })')).toEqual(['EntityManager call on an entity']);
    expect(violations("import { DataSource, Repository } from 'typeorm';")).toHaveLength(1);
    expect(violations('await this.db.transaction(async (m) => this.repo.find(m, id))')).toEqual([]);
    expect(violations('this.repo.update(m, id, { revoked_at: new Date() })')).toEqual([]);
  });
});
