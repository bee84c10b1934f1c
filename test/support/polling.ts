/** Polls until the check passes; the bound is generous because CI machines are slow and shared. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${opts.what ?? 'condition'}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}

export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
