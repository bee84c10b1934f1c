import { Injectable } from '@nestjs/common';
import { RecordsRepository } from './records.repository';
import { shippedValueSets } from './shipped-value-sets';
import { codesOf } from './value-set-codes';

/** How long a process keeps a value set's codes before reading them again (an administrator may load a newer expansion). */
const KEEP_MS = 60_000;

/**
 * The codes of value sets by canonical URL, for criteria read outside a measure run (hook calls): the
 * stored expansion when there is one, else the shipped one, so a fresh install reads them before any
 * measure has stored them. A URL with neither is absent, and a criterion naming it stays unknown.
 */
@Injectable()
export class ValueSets {
  private readonly kept = new Map<string, { at: number; tokens: readonly string[] | null }>();
  private shipped: Map<string, string[]> | null = null;

  constructor(private readonly records: RecordsRepository) {}

  async codes(urls: readonly string[], now = Date.now()): Promise<Map<string, readonly string[]>> {
    const stale = urls.filter((u) => (this.kept.get(u)?.at ?? -Infinity) + KEEP_MS <= now);
    if (stale.length) {
      const stored = await this.records.valueSetCodes(stale);
      for (const url of stale) this.kept.set(url, { at: now, tokens: stored.get(url) ?? this.shippedCodes().get(url) ?? null });
    }
    const out = new Map<string, readonly string[]>();
    for (const url of urls) {
      const tokens = this.kept.get(url)?.tokens;
      if (tokens) out.set(url, tokens);
    }
    return out;
  }

  private shippedCodes(): Map<string, string[]> {
    this.shipped ??= new Map(shippedValueSets().flatMap((v) => (typeof v.url === 'string' ? [[v.url, codesOf(v)]] : [])));
    return this.shipped;
  }
}
