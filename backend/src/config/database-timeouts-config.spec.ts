import { ConfigError, loadConfig } from './app-config';

const base = {
  NODE_ENV: 'test',
  JWT_SECRET: 'x'.repeat(32),
  DATA_DIR: '/tmp/cds-config-spec',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/cds',
};

describe('DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_ACQUIRE_TIMEOUT_MS', () => {
  it('default to 15 s per statement and 5 s to get a connection', () => {
    expect(loadConfig(base).databaseTimeouts).toEqual({ statementMs: 15_000, acquireMs: 5_000 });
  });

  it('take other values', () => {
    expect(loadConfig({ ...base, DATABASE_STATEMENT_TIMEOUT_MS: '30000', DATABASE_ACQUIRE_TIMEOUT_MS: '2000' }).databaseTimeouts).toEqual({
      statementMs: 30_000,
      acquireMs: 2_000,
    });
  });

  it.each([
    ['DATABASE_STATEMENT_TIMEOUT_MS', '0'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '15s'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '600001'],
    ['DATABASE_ACQUIRE_TIMEOUT_MS', '50'],
    ['DATABASE_ACQUIRE_TIMEOUT_MS', '2.5'],
  ])('names %s=%s as invalid', (name, value) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(new RegExp(name));
  });
});
