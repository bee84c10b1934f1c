import type { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config';
import { createDataSource } from './data-source';
import { embeddedDataDir, startEmbeddedPostgres } from './embedded';

/** For `typeorm migration:* -d backend/dist/database/cli-data-source.js` (npm run migration:*). */
async function cliDataSource(): Promise<DataSource> {
  const config = loadConfig();
  const url = config.databaseUrl ?? (await startEmbeddedPostgres(embeddedDataDir(config.dataDir))).url;
  return createDataSource(url, config.databaseTimeouts);
}

export default cliDataSource();
