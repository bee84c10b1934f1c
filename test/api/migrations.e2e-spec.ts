import { createDataSource } from '../../backend/src/database/data-source';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../backend/src/database/embedded';
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

  it('the entities match the migrated schema (no pending schema change)', async () => {
    const sql = await ds.driver.createSchemaBuilder().log();
    expect(sql.upQueries.map((q) => q.query)).toEqual([]);
  });
});
