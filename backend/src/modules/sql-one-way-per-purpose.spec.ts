import { moduleSources, type ModuleSource } from './testing/module-sources';

/**
 * "SQL one way per purpose" (issue 23), checked on the source text of every file under backend/src/modules:
 * - repositories query through TypeORM (entity manager, repositories, QueryBuilder); raw SQL (`.query(`) only in
 *   the files listed below, each with its reason;
 * - a module reads another module's table only through that module's exported function: a `FROM` or `JOIN` naming
 *   another module's table is flagged, unless listed below with its reason.
 * Both lists fail for an entry that no longer applies, so they cannot go stale: remove an entry once its file is fixed.
 */

/** Raw SQL kept on purpose: a hot path (with the bench that measures it), or SQL the builders do not express. */
const RAW_SQL: Record<string, string> = {
  'assessments/assessments.repository.ts':
    "answer path (issue 22, `npm run bench:api`, docs/benchmarks.md): a start's INSERT and an answer's UPDATE are each one statement with the knowledge-generation guard and the log row appended (data-modifying CTEs, which the builders do not express), each a named prepared statement on PostgreSQL",
  'assessments/chat-sessions.repository.ts':
    "answer path: the knowledge generation read beside the chat's write (issue 22, `npm run bench:api`)",
  'measures/runs/measure-results.repository.ts':
    'population runs: one upsert per chunk of stored results (unnest), and the freshness join with patient_record_stamps',
  'measures/runs/measure-runs.repository.ts':
    'population runs: one-statement claims of a run (UPDATE … RETURNING) and its guarded progress',
  'cds-hooks/cds-hooks.repository.ts':
    "hot path: a hook call's one recording statement and its client/generation read (`npm run bench:cds`, docs/benchmarks.md); one-statement ticket redemption (UPDATE … RETURNING in a CTE), jti upsert",
  'records/records.repository.ts':
    "a Bundle stored in one statement (unnest … ON CONFLICT DO UPDATE bumping version_id), and jsonb path filters on resources (what a hook call's record read uses); keyset paging of a population run's patients",
  'records/imports/record-imports.repository.ts':
    'a chunk and its counters moved in one statement (UPDATE … RETURNING in a CTE), bulk unnest inserts and the FOR UPDATE hand-over that the SIGKILL/SIGTERM tests pin',
  'auth/accounts.repository.ts': 'pg_advisory_xact_lock (the first sign-up becomes super_admin exactly once): TypeORM has no call for it',
  'auth/sessions.repository.ts': 'hot path: every authenticated request checks its session in one statement (`npm run bench:api`)',
  'rules/rule-versions.repository.ts':
    'the published versions (a correlated max per rule set), read at every session start and cached-copy check; not measured on its own',
  'parameters/parameters.repository.ts':
    'jsonb containment (rules naming a parameter) and ON CONFLICT on the partial template-name index (two administrators seeding at once)',
  'assessments/rule-analytics.repository.ts':
    'aggregates over jsonb arrays (LATERAL jsonb_array_elements with FILTER), per rule and period',
  'users/activity.repository.ts': 'the activity feed is one UNION ALL over five tables, clearer as SQL than as a builder',
};

/** Reads of another module's table, each with why it is not (yet) that module's exported function. */
const FOREIGN_READS: Record<string, string> = {
  'assessments/rule-analytics.repository.ts cds_cards': 'cds-hooks imports assessments, so the cds-hooks index would be a cycle',
  'assessments/rule-analytics.repository.ts cds_feedback': 'cds-hooks imports assessments, so the cds-hooks index would be a cycle',
  'auth/sessions.repository.ts users': 'hot path: the session, e-mail and role of every authenticated request in one statement',
  'auth/sessions.repository.ts user_roles': 'hot path: the session, e-mail and role of every authenticated request in one statement',
  'auth/sessions.repository.ts profiles':
    "hot path: the names GET /api/auth/user shows, read with the session check (SessionCache keeps them, so the caller's own identity costs no statement)",
  'parameters/parameters.repository.ts rules': 'rules imports parameters, so the rules index would be a cycle',
  'users/activity.repository.ts user_approvals': 'the activity feed (one UNION ALL over five modules’ tables)',
  'users/activity.repository.ts rule_set_versions': 'the activity feed (one UNION ALL over five modules’ tables)',
  'users/activity.repository.ts rule_sets': 'the activity feed (one UNION ALL over five modules’ tables)',
  'users/activity.repository.ts invitations': 'the activity feed (one UNION ALL over five modules’ tables)',
};

/** Tables created by migrations without an entity class, by owning module. */
const TABLES_WITHOUT_ENTITY: Record<string, string> = {
  cds_hook_generation: 'cds-hooks',
  fhir_resources: 'records',
  record_imports: 'records',
  record_import_chunks: 'records',
  record_import_resources: 'records',
};

const moduleOf = (file: string) => file.split('/')[0];

/** Every table and the module that owns it: its entity's module, or the list above. */
function tableOwners(files: ModuleSource[]): Map<string, string> {
  const owners = new Map(Object.entries(TABLES_WITHOUT_ENTITY));
  for (const f of files) for (const [, table] of f.text.matchAll(/@Entity\(\s*'(\w+)'/g)) owners.set(table, moduleOf(f.file));
  return owners;
}

// Raw SQL through TypeORM's query() or through a named prepared statement (database/prepared.ts).
const RAW = /\.query\s*[<(]|\bpreparedQuery\s*[<(]/;

/** The other modules' tables a file names after FROM or JOIN (in SQL text or a QueryBuilder's from/join). */
export function foreignTables(file: string, text: string, owners: ReadonlyMap<string, string>): string[] {
  const named = [
    ...[...text.matchAll(/\b(?:FROM|JOIN)\s+"?([a-z_]+)"?/g)].map((m) => m[1]),
    ...[...text.matchAll(/\.(?:from|(?:inner|left)Join(?:AndSelect)?)\(\s*'([a-z_]+)'/g)].map((m) => m[1]),
  ];
  return [...new Set(named.filter((t) => owners.has(t) && owners.get(t) !== moduleOf(file)))].sort();
}

describe('SQL one way per purpose', () => {
  const files = moduleSources();
  const owners = tableOwners(files);

  it('knows every module’s tables', () => {
    expect(owners.get('parameters')).toBe('parameters');
    expect(owners.get('cds_cards')).toBe('cds-hooks');
    expect(owners.get('users')).toBe('users');
    expect(owners.size).toBeGreaterThan(25);
  });

  it('raw SQL only in the files on the exception list', () => {
    const unlisted = files.filter((f) => RAW.test(f.text) && !(f.file in RAW_SQL) && f.file !== 'health/health.controller.ts');
    expect(unlisted.map((f) => f.file)).toEqual([]);
  });

  it('every raw-SQL exception still is one (remove it once its file uses the builders)', () => {
    const stale = Object.keys(RAW_SQL).filter((file) => !files.some((f) => f.file === file && RAW.test(f.text)));
    expect(stale).toEqual([]);
  });

  it("a module reads another module's table only through that module's exported function", () => {
    const found = files.flatMap((f) => foreignTables(f.file, f.text, owners).map((t) => `${f.file} ${t}`));
    expect(found.filter((read) => !(read in FOREIGN_READS))).toEqual([]);
    expect(Object.keys(FOREIGN_READS).filter((read) => !found.includes(read))).toEqual([]);
  });

  it('flags a foreign FROM or JOIN, in SQL and in a QueryBuilder, and not a table of its own module', () => {
    const rules = 'rules/rule-versions.repository.ts';
    expect(foreignTables(rules, 'SELECT id, loinc_code FROM parameters WHERE id = ANY($1)', owners)).toEqual(['parameters']);
    expect(foreignTables(rules, 'SELECT 1 FROM rule_sets rs JOIN "users" u ON u.id = rs.created_by', owners)).toEqual(['users']);
    expect(foreignTables(rules, "m.createQueryBuilder().from('parameters', 'p')", owners)).toEqual(['parameters']);
    expect(foreignTables(rules, 'SELECT 1 FROM rule_sets rs JOIN rule_set_versions v ON true', owners)).toEqual([]);
    expect(foreignTables(rules, '// read from parameters, in prose', owners)).toEqual([]);
  });
});
