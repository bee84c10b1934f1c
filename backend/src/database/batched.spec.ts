import { Batched } from './batched';

/** A run that records each batch it is given and answers when told to. */
function recorder(fail: (items: number[]) => boolean = () => false) {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  const run = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push(items);
      pending.push(() => (fail(items) ? reject(new Error(`refused ${items.join(',')}`)) : resolve(items.map((i) => `wrote ${i}`))));
    });
  /** Lets the oldest batch still out finish, and the writes it releases be sent. */
  const finishOne = async () => {
    pending.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { batches, run, finishOne };
}

describe('Batched (group commit of one kind of write)', () => {
  it('a write on a quiet server goes at once, alone', async () => {
    const r = recorder();
    const b = new Batched(r.run, { inFlight: 2, size: 10 });
    const out = b.submit(1);
    expect(r.batches).toEqual([[1]]);
    await r.finishOne();
    await expect(out).resolves.toBe('wrote 1');
  });

  it('writes arriving while the limit is out go together in the next batch, each with its own outcome', async () => {
    const r = recorder();
    const b = new Batched(r.run, { inFlight: 2, size: 10 });
    const outs = [1, 2, 3, 4, 5].map((i) => b.submit(i));
    expect(r.batches).toEqual([[1], [2]]);
    await r.finishOne();
    expect(r.batches).toEqual([[1], [2], [3, 4, 5]]);
    await r.finishOne();
    await r.finishOne();
    await expect(Promise.all(outs)).resolves.toEqual(['wrote 1', 'wrote 2', 'wrote 3', 'wrote 4', 'wrote 5']);
  });

  it('a batch holds at most `size` writes', async () => {
    const r = recorder();
    const b = new Batched(r.run, { inFlight: 1, size: 2 });
    const outs = [1, 2, 3, 4, 5].map((i) => b.submit(i));
    for (let i = 0; i < 3; i++) await r.finishOne();
    expect(r.batches).toEqual([[1], [2, 3], [4, 5]]);
    await Promise.all(outs);
  });

  it('a refused batch is written again one write at a time: only the refused write fails', async () => {
    const r = recorder((items) => items.includes(3));
    const b = new Batched(r.run, { inFlight: 1, size: 10 });
    const outs = [1, 2, 3, 4].map((i) => b.submit(i).catch((e: Error) => e.message));
    await r.finishOne(); // [1]
    await r.finishOne(); // [2, 3, 4] refused, then [2], [3], [4] alone
    expect(r.batches.slice(2)).toEqual([[2], [3], [4]]);
    await r.finishOne();
    await r.finishOne();
    await r.finishOne();
    await expect(Promise.all(outs)).resolves.toEqual(['wrote 1', 'wrote 2', 'refused 3', 'wrote 4']);
  });
});
