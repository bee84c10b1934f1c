import 'reflect-metadata';
import { loadConfig } from './config/app-config';
import { createDataSource } from './database/data-source';
import { embeddedDataDir, startEmbeddedPostgres } from './database/embedded';
import { ROLES, type Role } from '@cds/contracts';
import { announceSessionChange } from './modules/auth';

const USAGE = `Usage:
  npm run cli -- grant-role <email> <admin|super_admin|pcp|none>
  npm run cli -- migrate`;

/** Operator commands that run against the configured database (embedded or DATABASE_URL). */
async function main(argv: string[]) {
  const [command, ...args] = argv;
  if (command !== 'grant-role' && command !== 'migrate') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(embeddedDataDir(config.dataDir));
  const ds = createDataSource(config.databaseUrl ?? embedded!.url, config.databaseTimeouts);
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
    if (command === 'migrate') {
      process.stdout.write('Migrations are up to date.\n');
      return 0;
    }
    const [email, roleArg] = args;
    const role = roleArg === 'none' ? null : (roleArg as Role);
    if (!email || (role !== null && !ROLES.includes(role))) {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    const [user] = await ds.query('SELECT id FROM users WHERE email = $1', [email.trim().toLowerCase()]);
    if (!user) {
      process.stderr.write(`No account with the email ${email}. Sign up first.\n`);
      return 1;
    }
    if (role === null) await ds.query('DELETE FROM user_roles WHERE user_id = $1', [user.id]);
    else {
      await ds.query(
        `INSERT INTO user_roles (user_id, role) VALUES ($1, $2)
        ON CONFLICT (user_id) DO UPDATE SET role = EXCLUDED.role, granted_by = NULL`,
        [user.id, role],
      );
    }
    process.stdout.write(`${email} now has the role ${role ?? 'none'}.\n`);
    // Without Redis there is one API process, which sees the change within its session cache's 5 s expiry.
    if (config.redisUrl) {
      const { confirmed, processes } = await announceSessionChange(config.redisUrl, config.queue.prefix);
      if (confirmed < processes)
        process.stdout.write(`Only ${confirmed} of ${processes} API processes confirmed; the others apply it within 5 s.\n`);
    }
    return 0;
  } finally {
    await ds.destroy();
    await embedded?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
