import { BROKER_ENV, startBroker, type Broker } from './embedded-postgres-broker';

declare global {
  var __cdsEmbeddedPostgresBroker: Broker | undefined;
}

/** Without DATABASE_URL the suites get their databases from an embedded PostgreSQL broker. */
export default async function globalSetup() {
  if (process.env.DATABASE_URL || process.env[BROKER_ENV]) return;
  const broker = await startBroker();
  globalThis.__cdsEmbeddedPostgresBroker = broker;
  process.env[BROKER_ENV] = broker.url;
}
