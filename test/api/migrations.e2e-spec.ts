import { createDataSource } from '../../backend/src/database/data-source';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../backend/src/database/embedded';
import { CdsHookGenerationWhatCallsRead1796150000000 } from '../../backend/src/database/migrations/1796150000000-CdsHookGenerationWhatCallsRead';
import { AnswerOneRoundTrip1796610000000 } from '../../backend/src/database/migrations/1796610000000-AnswerOneRoundTrip';
import { RecordContextOncePerCall1796910000000 } from '../../backend/src/database/migrations/1796910000000-RecordContextOncePerCall';
import { createTestDatabase } from '../support/app';

const tables = async (ds: ReturnType<typeof createDataSource>) =>
  (
    await ds.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'migrations' ORDER BY 1`,
    )
  ).map((r: { table_name: string }) => r.table_name);

describe('migrations', () => {
  let embedded: EmbeddedDatabase | undefined;
  let drop: () => Promise<void> = async () => undefined;
  let ds: ReturnType<typeof createDataSource>;

  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    let url = db.url;
    if (!url) {
      embedded = await startEmbeddedPostgres(undefined);
      url = embedded.url;
    }
    ds = createDataSource(url);
    await ds.initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await embedded?.close();
    await drop();
  });

  it('run up, all the way down, and up again', async () => {
    const applied = await ds.runMigrations({ transaction: 'each' });
    expect(applied.length).toBe(ds.migrations.length);
    const schema = await tables(ds);
    expect(schema).toEqual(
      expect.arrayContaining([
        'users',
        'user_roles',
        'profiles',
        'user_approvals',
        'auth_sessions',
        'refresh_tokens',
        'invitations',
        'parameters',
        'parameter_changes',
        'rule_sets',
        'rules',
        'rule_set_versions',
        'rule_test_cases',
        'assessments',
        'chatbot_sessions',
      ]),
    );
    for (let i = 0; i < applied.length; i++) await ds.undoLastMigration({ transaction: 'each' });
    expect(await tables(ds)).toEqual([]);
    await ds.runMigrations({ transaction: 'each' });
    expect(await tables(ds)).toEqual(schema);
  });

  /** Undoes the latest migrations down to and including `name` (later ones come back with runMigrations). */
  const undoThrough = async (name: string) => {
    for (;;) {
      const [last] = (await ds.query(`SELECT "name" FROM "migrations" ORDER BY "id" DESC LIMIT 1`)) as { name: string }[];
      await ds.undoLastMigration({ transaction: 'each' });
      if (last.name === name) return;
    }
  };

  it('an HbA1c template still as seeded gains the ADA equivalents (recorded in its history); an edited one and down leave it as it was', async () => {
    await undoThrough('TemplateEquivalents1796420000000');
    const insert = (name: string, rules: object) =>
      ds.query(
        `INSERT INTO "parameters" ("name", "display_name", "data_type", "category", "units", "is_template", "validation_rules")
         VALUES ($1, 'HbA1c', 'lab_range', 'labs', '%', true, $2::jsonb) RETURNING "id"`,
        [name, JSON.stringify(rules)],
      );
    const [seeded] = await insert('hba1c', { min: 3, units_accepted: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152 }] });
    const [edited] = await insert('fasting_glucose', { units_accepted: [{ code: 'mmol/L', factor: 18.016 }] });
    const rulesOf = async (id: string) =>
      (await ds.query(`SELECT "validation_rules" FROM "parameters" WHERE "id" = $1`, [id]))[0].validation_rules;
    await ds.runMigrations({ transaction: 'each' });
    // 1796420000000 gives the pairs up to 7 %; 1796650000000 (below) then completes them to 9 %.
    expect(await rulesOf(seeded.id)).toEqual({
      min: 3,
      units_accepted: [
        {
          code: 'mmol/mol',
          factor: 0.09148,
          offset: 2.152,
          equivalents: [
            [39, 5.7],
            [48, 6.5],
            [53, 7],
            [64, 8],
            [75, 9],
          ],
        },
      ],
    });
    expect(await rulesOf(edited.id)).toEqual({ units_accepted: [{ code: 'mmol/L', factor: 18.016 }] });
    expect(await ds.query(`SELECT "change_type" FROM "parameter_changes" WHERE "parameter_id" = $1`, [seeded.id])).toEqual([
      { change_type: 'updated' },
      { change_type: 'updated' },
    ]);
    await undoThrough('TemplateEquivalents1796420000000');
    expect(await rulesOf(seeded.id)).toEqual({ min: 3, units_accepted: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152 }] });
    expect(await ds.query(`SELECT 1 FROM "parameter_changes" WHERE "parameter_id" = $1`, [seeded.id])).toEqual([]);
    await ds.runMigrations({ transaction: 'each' });
    await ds.query(`DELETE FROM "parameters" WHERE "id" = ANY($1::uuid[])`, [[seeded.id, edited.id]]);
  });

  it('HbA1cGuidelinePairs: seeded HbA1c, IFCC and A1C-days templates read IFCC through one pair list up to 9 %; a parameter in use and down are left as they were', async () => {
    await undoThrough('HbA1cGuidelinePairs1796650000000');
    const three = [
      {
        code: 'mmol/mol',
        factor: 0.09148,
        offset: 2.152,
        equivalents: [
          [39, 5.7],
          [48, 6.5],
          [53, 7.0],
        ],
      },
    ];
    const five = [
      {
        code: 'mmol/mol',
        factor: 0.09148,
        offset: 2.152,
        equivalents: [
          [39, 5.7],
          [48, 6.5],
          [53, 7],
          [64, 8],
          [75, 9],
        ],
      },
    ];
    const ifccBefore = [
      {
        code: '%',
        factor: 10.93135,
        offset: -23.52427,
        decimals: 1,
        equivalents: [
          [5.7, 39],
          [6.5, 48],
        ],
      },
    ];
    const insert = async (name: string, rules: object, template = true) =>
      (
        await ds.query(
          `INSERT INTO "parameters" ("name", "display_name", "data_type", "category", "units", "is_template", "validation_rules")
           VALUES ($1, $1, 'lab_range', 'labs', '%', $3, $2::jsonb) RETURNING "id"`,
          [name, JSON.stringify(rules), template],
        )
      )[0] as { id: string };
    const hba1c = await insert('hba1c', { min: 3, units_accepted: three });
    const ifcc = await insert('hba1c_ifcc', { min: 9, units_accepted: ifccBefore });
    const days = await insert('a1c_diabetes_range_days', { criterion: { take: 'distinct_days', units_accepted: three } });
    const inUse = await insert('hba1c_clinic', { units_accepted: three }, false);
    const rulesOf = async (id: string) =>
      (await ds.query(`SELECT "validation_rules" FROM "parameters" WHERE "id" = $1`, [id]))[0].validation_rules;
    await ds.runMigrations({ transaction: 'each' });
    expect((await rulesOf(hba1c.id)).units_accepted).toEqual(five);
    expect((await rulesOf(ifcc.id)).units_accepted[0].equivalents).toEqual([
      [5.7, 39],
      [6.5, 48],
      [7, 53],
      [8, 64],
      [9, 75],
    ]);
    expect((await rulesOf(days.id)).criterion).toEqual({ take: 'distinct_days', units_accepted: five });
    expect((await rulesOf(inUse.id)).units_accepted).toEqual(three);
    expect(await ds.query(`SELECT 1 FROM "parameter_changes" WHERE "parameter_id" = $1`, [inUse.id])).toEqual([]);
    expect(await ds.query(`SELECT "change_type" FROM "parameter_changes" WHERE "parameter_id" = $1`, [days.id])).toEqual([
      { change_type: 'updated' },
    ]);
    await undoThrough('HbA1cGuidelinePairs1796650000000');
    expect((await rulesOf(hba1c.id)).units_accepted).toEqual(three);
    expect((await rulesOf(days.id)).criterion.units_accepted).toEqual(three);
    expect(
      await ds.query(`SELECT 1 FROM "parameter_changes" WHERE "parameter_id" = ANY($1::uuid[])`, [[hba1c.id, ifcc.id, days.id]]),
    ).toEqual([]);
    await ds.runMigrations({ transaction: 'each' });
    await ds.query(`DELETE FROM "parameters" WHERE "id" = ANY($1::uuid[])`, [[hba1c.id, ifcc.id, days.id, inUse.id]]);
  });

  it('the entities match the migrated schema (no pending schema change)', async () => {
    const sql = await ds.driver.createSchemaBuilder().log();
    expect(sql.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('CdsHookGenerationWhatCallsRead: down() has every change move the hook generation again, up() only what a hook call reads', async () => {
    const generation = async () => BigInt((await ds.query(`SELECT generation::text AS g FROM cds_hook_generation`))[0].g);
    const rename = (name: string) => ds.query(`UPDATE cds_clients SET name = $1`, [name]);
    await ds.query(
      `INSERT INTO cds_clients (issuer, name, jwks_url, allowed_services, is_active)
       VALUES ('https://retired.example.org', 'Retired EHR', 'https://retired.example.org/jwks', '{patient-view}', false)`,
    );
    const migration = new CdsHookGenerationWhatCallsRead1796150000000();
    const runner = ds.createQueryRunner();
    try {
      const start = await generation();
      // An inactive client's name: nothing a hook call reads.
      await rename('Retired EHR (old)');
      expect(await generation()).toBe(start);
      await migration.down(runner);
      await rename('Retired EHR (older)');
      expect(await generation()).toBe(start + 1n);
      await migration.up(runner);
      await rename('Retired EHR (oldest)');
      expect(await generation()).toBe(start + 1n);
      await ds.query(`UPDATE cds_clients SET is_active = true`);
      expect(await generation()).toBe(start + 2n);
    } finally {
      await runner.release();
    }
  });

  it("AnswerOneRoundTrip: down() folds each assessment's appended log rows back into debug_log, after what it held, in step order; up() starts an empty log", async () => {
    await ds.runMigrations({ transaction: 'each' });
    const [user] = await ds.query(`INSERT INTO users (email) VALUES ('log.down@clinic.test') RETURNING id`);
    const insert = async () =>
      (
        await ds.query(
          `INSERT INTO assessments (user_id, rule_set_versions, debug_log, is_completed, completed_at)
           VALUES ($1, '[]', $2, true, now()) RETURNING id`,
          [user.id, JSON.stringify([{ entry: 'kept from before' }])],
        )
      )[0].id as string;
    const appended = await insert();
    const untouched = await insert();
    // Out of order on purpose: down() orders by step, then by position within a step.
    await ds.query(`INSERT INTO assessment_log (assessment_id, step, entries) VALUES ($1, 2, $2), ($1, 0, $3), ($1, 1, $4)`, [
      appended,
      JSON.stringify([{ entry: 'answer 2' }]),
      JSON.stringify([{ entry: 'start a' }, { entry: 'start b' }]),
      JSON.stringify([{ entry: 'answer 1' }]),
    ]);
    const log = async (id: string) => (await ds.query(`SELECT debug_log FROM assessments WHERE id = $1`, [id]))[0].debug_log;
    const migration = new AnswerOneRoundTrip1796610000000();
    const runner = ds.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await log(appended)).toEqual([
        { entry: 'kept from before' },
        { entry: 'start a' },
        { entry: 'start b' },
        { entry: 'answer 1' },
        { entry: 'answer 2' },
      ]);
      expect(await log(untouched)).toEqual([{ entry: 'kept from before' }]);
      await migration.up(runner);
      expect(await ds.query(`SELECT count(*)::int AS n FROM assessment_log`)).toEqual([{ n: 0 }]);
    } finally {
      await runner.release();
      await ds.query(`DELETE FROM assessments WHERE user_id = $1`, [user.id]);
      await ds.query(`DELETE FROM users WHERE id = $1`, [user.id]);
    }
  });

  it("RecordContextOncePerCall: down() copies a hook call's one record context back onto each of its tickets; up() gives each ticket's context a row it names; a ticket without one stays without", async () => {
    await ds.runMigrations({ transaction: 'each' });
    const patient = { source: 'ehr', reference: 'Patient/p-moved', name: 'Ada Moved' };
    const history = { read_at: '2026-11-27T10:00:00.000Z', parameters: [] };
    const [context] = await ds.query(
      `INSERT INTO cds_record_contexts (id, patient, history, expires_at) VALUES (gen_random_uuid(), $1, $2, now() + interval '5 minutes') RETURNING id`,
      [JSON.stringify(patient), JSON.stringify(history)],
    );
    const ticket = async (hash: string, contextId: string | null) =>
      (
        await ds.query(
          `INSERT INTO cds_prefill_tickets (token_hash, issuer, answers, expires_at, context_id)
           VALUES ($1, 'https://ehr.example.org', '[]', now() + interval '5 minutes', $2) RETURNING id`,
          [hash, contextId],
        )
      )[0].id as string;
    const first = await ticket('a'.repeat(64), context.id);
    const second = await ticket('b'.repeat(64), context.id);
    const without = await ticket('c'.repeat(64), null);
    const migration = new RecordContextOncePerCall1796910000000();
    const runner = ds.createQueryRunner();
    try {
      await migration.down(runner);
      const copied = await ds.query(`SELECT id, patient, history FROM cds_prefill_tickets ORDER BY token_hash`);
      expect(copied).toEqual([
        { id: first, patient, history },
        { id: second, patient, history },
        { id: without, patient: null, history: null },
      ]);
      await migration.up(runner);
      const moved = await ds.query(
        `SELECT t.id, c.patient, c.history, c.expires_at = t.expires_at AS expires_with_ticket
           FROM cds_prefill_tickets t LEFT JOIN cds_record_contexts c ON c.id = t.context_id ORDER BY t.token_hash`,
      );
      expect(moved).toEqual([
        { id: first, patient, history, expires_with_ticket: true },
        { id: second, patient, history, expires_with_ticket: true },
        { id: without, patient: null, history: null, expires_with_ticket: null },
      ]);
    } finally {
      await runner.release();
      await ds.query(`DELETE FROM cds_prefill_tickets`);
      await ds.query(`DELETE FROM cds_record_contexts`);
    }
  });
});
