const MAX_ROWS = 2_000;

/**
 * The assessments (or chat sessions) this process wrote last, as written: the next answer to one of them is checked
 * against this copy and written with `UPDATE … WHERE step = <its step>`, so the round trip needs
 * no read. Safe because every write of an assessment moves its step on (the answer is the only
 * write): if the write applies, the stored row was exactly this copy. If another process wrote in
 * between, the write applies to nothing, the copy is dropped and the answer is decided again on
 * the stored row. The service never answers from a copy without writing (repeats, refusals).
 */
export class WrittenRows<Row extends { id: string; user_id: string }> {
  private readonly rows = new Map<string, Row>();

  /** The copy, if this process wrote the assessment last for this owner. */
  take(id: string, ownerId: string): Row | undefined {
    const row = this.rows.get(id);
    return row?.user_id === ownerId ? row : undefined;
  }

  keep(row: Row): void {
    this.rows.delete(row.id);
    if (this.rows.size >= MAX_ROWS) this.rows.delete(this.rows.keys().next().value as string);
    this.rows.set(row.id, row);
  }

  drop(id: string): void {
    this.rows.delete(id);
  }
}
