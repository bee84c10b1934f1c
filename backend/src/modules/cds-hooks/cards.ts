import { randomUUID } from 'node:crypto';
import type { BasisJson, CdsCardJson, FindingJson, UndeterminedRuleJson } from '@cds/contracts';
import { OPERATOR_SYMBOL } from '@cds/engine';
import type { Knowledge } from '../assessments';
import { withUnit } from './answer-details';
import type { NoValue, ObservedValue } from './observations';

/** The cards of a hook call: one per finding, one for undetermined rules, one for what was set aside. */

const SUMMARY_MAX = 140;
const day = (d: Date) => d.toISOString().slice(0, 10);

const INDICATOR = { critical: 'critical', high: 'warning' } as const;

function summaryOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= SUMMARY_MAX ? flat : `${flat.slice(0, SUMMARY_MAX - 1).trimEnd()}…`;
}

/** Markdown special characters in administrator-entered text are shown, not interpreted. */
const md = (s: string) => s.replace(/([\\`*_[\]<>])/g, '\\$1');

function conditionText(b: BasisJson): string {
  const symbol = (OPERATOR_SYMBOL as Record<string, string>)[b.operator] ?? b.operator;
  const threshold = typeof b.threshold === 'number' ? withUnit(b.threshold, b.units) : JSON.stringify(b.threshold);
  return `${b.display_name ?? b.parameter_name ?? 'Value'} ${symbol} ${threshold}`;
}

export function versionOf(f: FindingJson, k: Knowledge): number | undefined {
  return k.versionOfRuleSet.get(f.rule_set_id)?.version;
}

function sourceLabel(setName: string, version: number | undefined, citation: string | null): string {
  return `${setName}${version !== undefined ? ` v${version}` : ''}${citation ? ` · ${citation}` : ''}`;
}

export function findingCard(f: FindingJson, k: Knowledge, observed: ReadonlyMap<string, ObservedValue>): CdsCardJson {
  const version = versionOf(f, k);
  const lead = f.actions[0]?.message ?? f.description;
  const lines = [`**${md(f.rule_name)}**${f.description ? `: ${md(f.description)}` : ''}`, '', '**Basis**', ''];
  for (const b of f.basis) {
    const o = b.parameter_id ? observed.get(b.parameter_id) : undefined;
    const value = o ? `${md(b.label ?? String(b.value))}, Observation of ${day(o.at)}` : md(b.label ?? String(b.value));
    lines.push(`- ${md(conditionText(b))}: ${value}`);
  }
  if (f.actions.length) {
    lines.push('', '**Actions**', '');
    for (const a of f.actions) lines.push(`- ${md(a.message)} (${a.severity})`);
  }
  lines.push(
    '',
    `Rule "${md(f.rule_name)}" version ${f.rule_version}, rule set ${md(f.rule_set_name)}${version !== undefined ? ` version ${version}` : ''}.`,
  );
  if (f.source) lines.push(`Source: ${md(f.source)}`);
  return {
    uuid: randomUUID(),
    summary: summaryOf(`${f.rule_name}: ${lead}`),
    indicator: (INDICATOR as Record<string, 'critical' | 'warning'>)[f.severity] ?? 'info',
    source: { label: sourceLabel(f.rule_set_name, version, f.source) },
    detail: lines.join('\n'),
    links: [],
  };
}

function missingText(reason: string, no: NoValue | undefined): string {
  if (no?.reason === 'set_aside') return `set aside: ${no.text?.replace(/^.* set aside: /, '') ?? 'unreadable'}`;
  if (no?.reason === 'stale') return `latest Observation of ${day(no.at!)} is older than ${no.lookback_days} days`;
  if (no?.reason === 'no_date') return 'the Observation has no date';
  if (no?.reason === 'no_observation') return 'no Observation found';
  return reason === 'straddles_threshold' ? 'the value given straddles the threshold' : 'not available from the EHR';
}

export function undeterminedCard(rules: readonly UndeterminedRuleJson[], k: Knowledge, missing: ReadonlyMap<string, NoValue>): CdsCardJson {
  const inputs = new Map<string, string>();
  const lines = ['These rules could not be decided with the data in the record:', ''];
  for (const u of rules) {
    const names = u.unknown_parameters.map((m) => {
      const name = m.display_name ?? m.parameter_name ?? 'an input';
      const reason = (m as { reason?: string }).reason ?? 'unknown_answer';
      const text = `${name} (${missingText(reason, m.parameter_id ? missing.get(m.parameter_id) : undefined)})`;
      inputs.set(name, text);
      return md(text);
    });
    lines.push(
      `- **${md(u.rule_name)}**${u.rule_set_name ? ` (${md(u.rule_set_name)})` : ''}: needs ${names.join(', ') || 'no listed input'}`,
    );
  }
  const sets = [...new Set(rules.map((u) => u.rule_set_name).filter((n): n is string => !!n))];
  const label = sets
    .map((name) => {
      const v = [...k.versionOfRuleSet.values()].find((x) => x.name === name);
      return sourceLabel(name, v?.version, null);
    })
    .join('; ');
  return {
    uuid: randomUUID(),
    summary: summaryOf(`${rules.length} rule${rules.length === 1 ? '' : 's'} undetermined: missing ${[...inputs.keys()].join(', ')}`),
    indicator: 'info',
    source: { label: label || 'DiabetesCDS published rule sets' },
    detail: lines.join('\n'),
    links: [],
  };
}

/** One info card for everything the record held that was not used, and why: a clinician can check it in the chart. */
export function setAsideCard(setAside: readonly string[], future: readonly string[]): CdsCardJson {
  const lines: string[] = [];
  if (setAside.length)
    lines.push('Set aside from the record (the rules that need these are undetermined):', '', ...setAside.map((t) => `- ${md(t)}`));
  if (future.length) {
    if (lines.length) lines.push('');
    lines.push('Results dated in the future, not used as the latest:', '', ...future.map((t) => `- ${md(t)}`));
  }
  const first = setAside[0] ?? `future-dated: ${future[0]}`;
  const total = setAside.length + future.length;
  return {
    uuid: randomUUID(),
    summary: summaryOf(total === 1 ? first : `${total} results set aside from the record: ${first}; …`),
    indicator: 'info',
    source: { label: 'DiabetesCDS reading of the record' },
    detail: lines.join('\n'),
    links: [],
  };
}
