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
    extra: { max: POOL_SIZE },
    logging: ['error'],
  };
}

export function createDataSource(url: string): DataSource {
  return new DataSource(dataSourceOptions(url));
}
