type Json = Record<string, unknown>;

/** "Given Family" from a Patient's official (else first) name, or its text; null when it has no usable name. */
export function nameOfPatient(patient: Json | null | undefined): string | null {
  const names = Array.isArray(patient?.name) ? (patient.name as Json[]).filter((x) => typeof x === 'object' && x !== null) : [];
  const n = names.find((x) => x.use === 'official') ?? names[0];
  if (!n) return null;
  if (typeof n.text === 'string' && n.text.trim()) return n.text.trim().slice(0, 200);
  const given = Array.isArray(n.given) ? (n.given as unknown[]).filter((g) => typeof g === 'string') : [];
  const text = [...given, typeof n.family === 'string' ? n.family : ''].join(' ').trim();
  return text ? text.slice(0, 200) : null;
}
