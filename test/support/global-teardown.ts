import { BROKER_ENV } from './embedded-postgres-broker';

export default async function globalTeardown() {
  const broker = globalThis.__cdsEmbeddedPostgresBroker;
  if (!broker) return;
  await broker.close();
  globalThis.__cdsEmbeddedPostgresBroker = undefined;
  delete process.env[BROKER_ENV];
}
