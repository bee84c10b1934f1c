/** A write waiting for its batch, with its caller's promise. */
interface Waiting<I, O> {
  item: I;
  resolve: (out: O) => void;
  reject: (error: unknown) => void;
}

export interface BatchLimits {
  /** Batches sent at once; a write arriving while that many are out waits for the next one. */
  inFlight: number;
  /** Writes in one batch at most. */
  size: number;
}

/**
 * Group commit for one kind of write: writes that arrive while earlier ones are out go to the database together, as one
 * statement in one transaction, so the work a statement costs whatever its size (the round trip, executor start, commit
 * and WAL flush) is paid once per batch under load instead of once per request (docs/benchmarks.md). A write arriving
 * when fewer than `inFlight` batches are out goes at once, so a quiet server waits for nothing. `run` returns one outcome
 * per item, in order. A batch of several that fails is run again one write at a time: each caller then gets its own
 * write's outcome or error, and no write is lost or refused because another in its batch was.
 */
export class Batched<I, O> {
  private readonly waiting: Waiting<I, O>[] = [];
  private out = 0;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly limits: BatchLimits = { inFlight: 2, size: 64 },
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.send();
    });
  }

  private send(): void {
    while (this.out < this.limits.inFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.limits.size);
      this.out++;
      void this.settle(batch).finally(() => {
        this.out--;
        this.send();
      });
    }
  }

  private async settle(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const outs = await this.run(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(outs[i]));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      // The statement failed as a whole (nothing of it was written): each write again on its own.
      await Promise.all(
        batch.map((w) =>
          this.run([w.item]).then(
            ([out]) => w.resolve(out),
            (e: unknown) => w.reject(e),
          ),
        ),
      );
    }
  }
}
