import { Client } from 'pg';

/**
 * Every statement the app sends to the database while `run` runs: pg's client is the one driver under TypeORM and
 * under the prepared statements, on PostgreSQL and on the embedded database alike.
 */
export async function statementsOf<T>(run: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const original = Client.prototype.query;
  const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    statements.push((typeof q === 'string' ? q : (q?.text ?? '')).replace(/\s+/g, ' ').trim());
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
  try {
    return { result: await run(), statements };
  } finally {
    spy.mockRestore();
  }
}
