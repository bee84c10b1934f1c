interface Contains {
  system?: string;
  code?: string;
  contains?: Contains[];
}

/** A ValueSet's `system|code` tokens: its expansion (nested included), else the concepts its compose lists. */
export function codesOf(resource: Record<string, unknown>): string[] {
  const tokens = new Set<string>();
  const walk = (items: Contains[] | undefined) => {
    for (const c of items ?? []) {
      if (c.system && c.code) tokens.add(`${c.system}|${c.code}`);
      walk(c.contains);
    }
  };
  walk((resource.expansion as { contains?: Contains[] } | undefined)?.contains);
  const include = (resource.compose as { include?: { system?: string; concept?: { code: string }[] }[] } | undefined)?.include;
  for (const inc of include ?? []) for (const c of inc.system ? (inc.concept ?? []) : []) tokens.add(`${inc.system}|${c.code}`);
  return [...tokens];
}
