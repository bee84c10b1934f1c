import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from '../config/app-config';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export const POOL_SIZE = 10;

/**
 * The driver's own deadline comes this much after PostgreSQL's: a server that is alive cancels the
 * statement itself (its error names the cause, and the connection stays usable); only one that stopped
 * answering altogether (frozen, or a network that drops packets) is given up on by the driver.
 */
const DRIVER_GRACE_MS = 1_000;

/** The one set of DataSource options, shared by the app and the migration CLI. */
export function dataSourceOptions(url: string, timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS): PostgresDataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    // A pool that cannot connect, and a statement that does not finish, fail the request (503) instead
    // of holding it forever. The embedded PGlite ignores statement_timeout (a startup parameter; it
    // has no timer to cancel with): there the driver's deadline alone applies, and nothing is SET,
    // which would leak across its one shared session.
    extra: {
      max: POOL_SIZE,
      connectionTimeoutMillis: timeouts.acquireMs,
      statement_timeout: timeouts.statementMs,
      query_timeout: timeouts.statementMs + DRIVER_GRACE_MS,
    },
    logging: ['error'],
  };
}

export function createDataSource(url: string, timeouts?: DatabaseTimeouts): DataSource {
  return new DataSource(dataSourceOptions(url, timeouts));
}
