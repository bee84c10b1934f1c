import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export const POOL_SIZE = 10;

/** The one set of DataSource options, shared by the app and the migration CLI. */
export function dataSourceOptions(url: string): PostgresDataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    // A pool that cannot connect fails the request (503) instead of holding it forever.
    extra: { max: POOL_SIZE, connectionTimeoutMillis: 10_000 },
    logging: ['error'],
  };
}

export function createDataSource(url: string): DataSource {
  return new DataSource(dataSourceOptions(url));
}
