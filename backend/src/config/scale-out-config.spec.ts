import { ConfigError, loadConfig } from './app-config';

const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/cds-config-spec' };
const external = { ...base, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/cds', REDIS_URL: 'redis://127.0.0.1:6379' };

describe('API_PROCESSES and WORKER_CONCURRENCY', () => {
  it('default to one API process and four jobs per worker', () => {
    expect(loadConfig(base)).toMatchObject({ apiProcesses: 1, workerConcurrency: 4, trustProxy: ['loopback'] });
  });

  it('accept several API processes on PostgreSQL and Redis', () => {
    expect(loadConfig({ ...external, API_PROCESSES: '4', WORKER_CONCURRENCY: '16' })).toMatchObject({
      apiProcesses: 4,
      workerConcurrency: 16,
    });
  });

  it('refuse several API processes on the embedded database, which lives inside one process', () => {
    expect(() => loadConfig({ ...base, REDIS_URL: 'redis://127.0.0.1:6379', API_PROCESSES: '2' })).toThrow(
      /API_PROCESSES: more than 1 needs DATABASE_URL/,
    );
  });

  it('refuse several API processes without Redis, where rate limits and jobs would split per process', () => {
    expect(() => loadConfig({ ...external, REDIS_URL: '', API_PROCESSES: '2' })).toThrow(/API_PROCESSES: more than 1 needs REDIS_URL/);
  });

  it.each([
    ['API_PROCESSES', '0'],
    ['API_PROCESSES', 'two'],
    ['API_PROCESSES', '65'],
    ['WORKER_CONCURRENCY', '0'],
    ['WORKER_CONCURRENCY', '1.5'],
    ['TRUST_PROXY', 'everyone'],
  ])('names %s=%s as invalid', (name, value) => {
    expect(() => loadConfig({ ...external, [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...external, [name]: value })).toThrow(new RegExp(name));
  });

  it('takes TRUST_PROXY as a list for a proxy outside this host (docker network)', () => {
    expect(loadConfig({ ...external, TRUST_PROXY: 'loopback, uniquelocal' }).trustProxy).toEqual(['loopback', 'uniquelocal']);
  });
});
