import type { EntityManager } from 'typeorm';
import { conflict } from '../../common/errors';
import { DIABETES_TEMPLATES, type TemplateSeed } from './diabetes-templates';
import type { Parameter } from './parameter.entity';
import {
  activeParameterByName,
  activeParametersByCode,
  insertParameterChange,
  insertParameterRow,
  templateByName,
} from './parameters.repository';

/** What installing a content pack did for one parameter it reads. */
export interface PackParameter {
  /** The template's name: the key the pack's conditions use. */
  key: string;
  parameter: Parameter;
  /** Created now (from the template), or an existing clinic parameter reused. */
  created: boolean;
  template_created: boolean;
}

const AUDIT = [
  'name',
  'display_name',
  'description',
  'data_type',
  'category',
  'units',
  'is_required',
  'is_template',
  'template_name',
  'validation_rules',
  'loinc_code',
  'version',
  'is_active',
] as const;
const audit = (p: Parameter) => Object.fromEntries(AUDIT.map((k) => [k, p[k]]));

function seedFor(key: string): TemplateSeed {
  const seed = DIABETES_TEMPLATES.find((t) => t.name === key);
  if (!seed) throw new Error(`Content pack names parameter template "${key}", which is not a shipped template`);
  return seed;
}

/**
 * The clinic's parameter for each template a content pack reads, inside the caller's transaction:
 * the template is created from the shipped seed if it is missing (an administrator may have edited
 * it; the clinic's copy follows the clinic's template), then an active parameter with the template's
 * LOINC code is reused, else one with its name (when neither side has a different code and the unit
 * agrees), else a copy of the template is created. A parameter that would clash is a 409, and the
 * caller's transaction writes nothing.
 */
export async function ensurePackParameters(
  m: EntityManager,
  keys: readonly string[],
  actorId: string,
  reason: string,
): Promise<PackParameter[]> {
  const out: PackParameter[] = [];
  for (const key of keys) {
    const seed = seedFor(key);
    let template = await templateByName(m, key);
    let templateCreated = false;
    if (!template) {
      template = await insertParameterRow(m, {
        name: seed.name,
        display_name: seed.display_name,
        description: seed.description,
        data_type: seed.data_type,
        category: seed.category,
        units: seed.units,
        is_required: seed.is_required,
        is_template: true,
        template_name: seed.template_name,
        validation_rules: seed.validation_rules,
        loinc_code: seed.loinc_code,
        question_override: seed.question_override ?? null,
        version: 1,
        is_active: true,
        created_by: actorId,
      });
      await insertParameterChange(m, {
        parameter_id: template.id,
        parameter_name: template.name,
        change_type: 'created',
        old_values: null,
        new_values: audit(template),
        changed_by: actorId,
        change_reason: reason,
      });
      templateCreated = true;
    }
    const found = await reusable(m, template);
    if (found.reuse) {
      out.push({ key, parameter: found.reuse, created: false, template_created: templateCreated });
      continue;
    }
    const created = await insertParameterRow(m, {
      name: found.name,
      display_name: template.display_name,
      description: template.description,
      data_type: template.data_type,
      category: template.category,
      units: template.units,
      is_required: template.is_required,
      is_template: false,
      template_name: template.template_name,
      validation_rules: template.validation_rules,
      loinc_code: template.loinc_code,
      question_override: template.question_override,
      version: 1,
      is_active: true,
      created_by: actorId,
    });
    await insertParameterChange(m, {
      parameter_id: created.id,
      parameter_name: created.name,
      change_type: 'created',
      old_values: null,
      new_values: audit(created),
      changed_by: actorId,
      change_reason: reason,
    });
    out.push({ key, parameter: created, created: true, template_created: templateCreated });
  }
  return out;
}

/**
 * An existing clinic parameter the pack's rules can read instead of a new copy, or else the name
 * the new one takes: the template's, or, when a parameter of that name records another LOINC code
 * (another test, such as eGFR 62238-1 beside CKD-EPI 2021 98979-8), the name with the code appended.
 */
async function reusable(
  m: EntityManager,
  template: Parameter,
): Promise<{ reuse: Parameter; name?: never } | { reuse?: never; name: string }> {
  const sameUnit = (p: Parameter) => (p.units ?? '') === (template.units ?? '') && sameKind(p.data_type, template.data_type);
  if (template.loinc_code) {
    const byCode = await activeParametersByCode(m, template.loinc_code);
    const match = byCode.find(sameUnit);
    if (match) return { reuse: match };
    if (byCode.length)
      throw conflict(
        `The parameter "${byCode[0].name}" has LOINC ${template.loinc_code} but records ${byCode[0].units ?? 'no unit'} (${byCode[0].data_type}); the pack needs ${template.units ?? 'no unit'} (${template.data_type}). Change or deactivate it, then install again.`,
        { parameter_id: byCode[0].id },
      );
  }
  const byName = await activeParameterByName(m, template.name);
  if (!byName) return { name: template.name };
  if (byName.loinc_code && template.loinc_code && byName.loinc_code !== template.loinc_code) {
    const name = `${template.name}_${template.loinc_code.replace('-', '_')}`;
    const taken = await activeParameterByName(m, name);
    if (taken)
      throw conflict(
        `The parameter "${taken.name}" exists without LOINC ${template.loinc_code}; rename or deactivate it, then install again.`,
        { parameter_id: taken.id },
      );
    return { name };
  }
  if (!sameUnit(byName))
    throw conflict(
      `The parameter "${byName.name}" records ${byName.units ?? 'no unit'} (${byName.data_type}); the pack needs ${template.units ?? 'no unit'} (${template.data_type}). Rename or deactivate it, then install again.`,
      { parameter_id: byName.id },
    );
  return { reuse: byName };
}

const NUMERIC = new Set(['number', 'lab_range', 'vitals', 'calculated']);
/** Conditions written for one numeric type read any numeric type; other types must match. */
function sameKind(a: string, b: string): boolean {
  return a === b || (NUMERIC.has(a) && NUMERIC.has(b));
}
