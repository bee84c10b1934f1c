import {
  FHIR_OPTION_SYSTEM_PATH,
  FHIR_PARAMETER_SYSTEM_PATH,
  FHIR_SYSTEM,
  NOT_AVAILABLE,
  NOT_AVAILABLE_CODE,
  NOT_AVAILABLE_LABEL,
  type AnswerDetailJson,
  type AnswerOptionJson,
  type BasisJson,
  type FindingJson,
  type QuestionJson,
  type RangeValue,
  type UndeterminedRuleJson,
} from '@cds/contracts';
import { codeForUnit, OPERATOR_SYMBOL, typeClassOf, unitDisplay, type EngineParameter } from '@cds/engine';
import type {
  Coding,
  Extension,
  GuidanceResponse,
  Observation,
  Parameters,
  ParametersParameter,
  Quantity,
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireItemAnswerOption,
  QuestionnaireResponseItemAnswer,
  Reference,
} from '@medplum/fhirtypes';
import { sameJson } from '../../common/api-helpers';
import { formatNumber } from '../assessments/content';

/**
 * FHIR R4 shapes of what the engine asks and decides. Pure: the services load the data, these
 * functions only translate. Empty strings and empty arrays are left out (FHIR forbids both).
 */

/** The app's public URL (no trailing slash) and the LOINC code of each parameter that has one. */
export interface FhirContext {
  base: string;
  loinc: ReadonlyMap<string, string>;
}

/** A published rule-set version, as the canonical URLs name it. */
export interface VersionInfo {
  rule_set_id: string;
  name: string;
  version: number;
  published_at?: string | null;
  source?: string | null;
}

export const questionnaireUrl = (ctx: FhirContext, ruleSetId: string) => `${ctx.base}/api/fhir/Questionnaire/${ruleSetId}`;
export const planDefinitionUrl = (ctx: FhirContext, ruleSetId: string) => `${ctx.base}/api/fhir/PlanDefinition/${ruleSetId}`;
export const libraryUrl = (ctx: FhirContext, ruleSetId: string) => `${ctx.base}/api/fhir/Library/${ruleSetId}`;

const EXT = {
  unitOption: 'http://hl7.org/fhir/StructureDefinition/questionnaire-unitOption',
  minValue: 'http://hl7.org/fhir/StructureDefinition/minValue',
  maxValue: 'http://hl7.org/fhir/StructureDefinition/maxValue',
  maxDecimalPlaces: 'http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces',
} as const;

/** Drops undefined, empty strings and empty arrays, so no resource carries an element FHIR forbids. */
export function clean<T extends object>(o: T): T {
  return Object.fromEntries(
    Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)),
  ) as T;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

export const notAvailableCoding = (): Coding => ({
  system: FHIR_SYSTEM.dataAbsentReason,
  code: NOT_AVAILABLE_CODE,
  display: NOT_AVAILABLE_LABEL,
});

/** What the parameter measures: its LOINC code, else our own parameter code. */
export function parameterCoding(ctx: FhirContext, p: Pick<EngineParameter, 'id' | 'display_name' | 'name'>): Coding {
  const loinc = ctx.loinc.get(p.id);
  const display = text(p.display_name) ?? p.name;
  return loinc
    ? { system: FHIR_SYSTEM.loinc, code: loinc, display }
    : { system: `${ctx.base}${FHIR_PARAMETER_SYSTEM_PATH}`, code: p.id, display };
}

/** Answer options are coded by their place in the question's list ("1", "2", ...); Not available is a data-absent reason. */
export function optionCoding(ctx: FhirContext, option: AnswerOptionJson, index: number): Coding {
  if (option.value === NOT_AVAILABLE) return notAvailableCoding();
  return { system: `${ctx.base}${FHIR_OPTION_SYSTEM_PATH}`, code: String(index + 1), display: option.label };
}

function ucumQuantity(value: number, unit: string | null | undefined): Quantity {
  return unit ? { value, unit: unitDisplay(unit) || unit, system: FHIR_SYSTEM.ucum, code: unit } : { value };
}

const isNumeric = (dataType: string) => typeClassOf(dataType) === 'numeric';

/** One question of the form: item type from the data type, unit options and limits, the engine's options as answerOption. */
export function questionItem(ctx: FhirContext, q: QuestionJson): QuestionnaireItem {
  const cls = typeClassOf(q.data_type);
  const answerOption: QuestionnaireItemAnswerOption[] = q.options.map((o, i) => ({ valueCoding: optionCoding(ctx, o, i) }));
  const extension: Extension[] = [];
  if (q.input) {
    for (const u of q.input.units_accepted) {
      extension.push({ url: EXT.unitOption, valueCoding: { system: FHIR_SYSTEM.ucum, code: u.code, display: u.display || u.code } });
    }
    if (q.input.min !== null) extension.push({ url: EXT.minValue, valueDecimal: q.input.min });
    if (q.input.max !== null) extension.push({ url: EXT.maxValue, valueDecimal: q.input.max });
    if (q.input.decimals !== null) extension.push({ url: EXT.maxDecimalPlaces, valueInteger: q.input.decimals });
  }
  const type: QuestionnaireItem['type'] =
    cls === 'numeric' ? 'quantity' : cls === 'date' ? 'date' : cls === 'text' ? 'open-choice' : 'choice';
  return clean({
    linkId: q.parameter_id,
    code: [parameterCoding(ctx, { id: q.parameter_id, display_name: q.display_name, name: q.name })],
    text: text(q.text) ?? q.display_name,
    type,
    extension,
    // A date has no options to choose from; Not available is still accepted as a data-absent-reason coding.
    answerOption: type === 'date' ? [] : answerOption,
  });
}

export function questionnaire(ctx: FhirContext, v: VersionInfo, questions: readonly QuestionJson[]): Questionnaire {
  return clean({
    resourceType: 'Questionnaire',
    id: v.rule_set_id,
    url: questionnaireUrl(ctx, v.rule_set_id),
    version: String(v.version),
    title: v.name,
    status: 'active',
    subjectType: ['Patient'],
    date: v.published_at ?? undefined,
    description: v.source ? `Questions of ${v.name}, version ${v.version} (${v.source}).` : undefined,
    item: questions.map((q) => questionItem(ctx, q)),
  }) as Questionnaire;
}

function isRange(v: unknown): v is RangeValue {
  return typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'range';
}

/** The answer as entered: typed value with its unit, the option chosen, or Not available. */
export function responseAnswer(
  ctx: FhirContext,
  d: AnswerDetailJson,
  options: readonly AnswerOptionJson[],
): QuestionnaireResponseItemAnswer {
  if (d.entered_as === 'not_available' || d.value === NOT_AVAILABLE) return { valueCoding: notAvailableCoding() };
  if (d.entered_as === 'band' || d.entered_as === 'option') {
    const i = options.findIndex((o) => sameJson(o.value, d.value));
    return { valueCoding: i >= 0 ? optionCoding(ctx, options[i], i) : { display: d.label } };
  }
  const entered = typeof d.entered_value === 'number' ? d.entered_value : d.value;
  if (typeof entered === 'number') return { valueQuantity: ucumQuantity(entered, d.unit ?? d.units) };
  if (typeof entered === 'boolean') return { valueBoolean: entered };
  if (typeof entered === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(entered)) return { valueDate: entered };
  return { valueString: typeof entered === 'string' ? entered : d.label };
}

/**
 * One Observation per measured answer: the value as entered with its UCUM unit (a band as a
 * Range), dated when it was observed; Not available is a dataAbsentReason, never a value.
 */
export function observation(
  ctx: FhirContext,
  id: string,
  d: AnswerDetailJson,
  p: EngineParameter,
  derivedFrom: string,
): Observation | null {
  if (!isNumeric(p.data_type)) return null;
  const base: Observation = {
    resourceType: 'Observation',
    id,
    status: 'final',
    code: { coding: [parameterCoding(ctx, p)], text: text(p.display_name) ?? p.name },
    effectiveDateTime: d.observed_at ?? d.answered_at,
    issued: d.answered_at,
    derivedFrom: [{ reference: derivedFrom }],
    note: text(d.label) ? [{ text: d.label }] : undefined,
  };
  if (d.entered_as === 'not_available' || d.value === NOT_AVAILABLE) {
    return {
      ...base,
      dataAbsentReason: { coding: [{ ...notAvailableCoding(), display: 'Asked But Unknown' }], text: NOT_AVAILABLE_LABEL },
    };
  }
  const unit = d.unit ?? d.units;
  const band = isRange(d.entered_value) ? d.entered_value : isRange(d.value) ? d.value : null;
  if (band) {
    const bandUnit = isRange(d.entered_value) ? unit : d.units;
    return clean({
      ...inUnit(ctx, base, p, bandUnit),
      valueRange: clean({
        low: band.min !== null ? ucumQuantity(band.min, bandUnit) : undefined,
        high: band.max !== null ? ucumQuantity(band.max, bandUnit) : undefined,
      }),
    });
  }
  const entered = typeof d.entered_value === 'number' ? d.entered_value : d.value;
  return typeof entered === 'number' ? { ...inUnit(ctx, base, p, unit), valueQuantity: ucumQuantity(entered, unit) } : null;
}

/** The LOINC code that matches the unit the value is written in: HbA1c in mmol/mol is 59261-8, never 4548-4 (a % code). */
function inUnit(ctx: FhirContext, base: Observation, p: EngineParameter, unit: string | null | undefined): Observation {
  const loinc = ctx.loinc.get(p.id);
  const code = loinc ? codeForUnit(loinc, unit) : undefined;
  if (!code || code === loinc) return base;
  return { ...base, code: { ...base.code, coding: [{ ...parameterCoding(ctx, p), code }] } };
}

/** "HbA1c ≥ 6.5 %": a condition as people read it. */
export function conditionText(name: string, operator: string, threshold: unknown, units: string | null | undefined): string {
  const symbol = (OPERATOR_SYMBOL as Record<string, string>)[operator] ?? operator;
  const shown =
    typeof threshold === 'number'
      ? `${formatNumber(threshold)}${units ? ` ${unitDisplay(units) || units}` : ''}`
      : JSON.stringify(threshold);
  return `${name} ${symbol} ${shown}`;
}

const part = (name: string, value: Omit<ParametersParameter, 'name'>): ParametersParameter => ({ name, ...value });
const stringPart = (name: string, v: unknown): ParametersParameter[] => {
  const s = text(v);
  return s ? [part(name, { valueString: s })] : [];
};

function basisPart(b: BasisJson, observationRef: (parameterId: string) => string | undefined): ParametersParameter {
  const name = b.display_name ?? b.parameter_name ?? 'Value';
  const ref = b.parameter_id ? observationRef(b.parameter_id) : undefined;
  return part('basis', {
    part: [
      ...stringPart('parameter', name),
      ...stringPart('parameter-id', b.parameter_id),
      part('condition', { valueString: conditionText(name, b.operator, b.threshold, b.units) }),
      part('answer', { valueString: text(b.label) ?? JSON.stringify(b.value) }),
      ...(ref ? [part('observation', { valueReference: { reference: ref } })] : []),
    ],
  });
}

function findingPart(f: FindingJson, rank: number, observationRef: (parameterId: string) => string | undefined): ParametersParameter {
  return part('finding', {
    part: [
      part('rank', { valueInteger: rank }),
      part('rule', { valueString: f.rule_name }),
      part('rule-id', { valueString: f.rule_id }),
      part('rule-version', { valueInteger: f.rule_version }),
      part('severity', { valueCode: f.severity }),
      part('priority', Number.isInteger(f.priority) ? { valueInteger: f.priority } : { valueDecimal: f.priority }),
      ...stringPart('description', f.description),
      ...stringPart('source', f.source),
      ...f.actions.map((a) =>
        part('action', {
          part: [...stringPart('type', a.type), part('severity', { valueCode: a.severity }), part('message', { valueString: a.message })],
        }),
      ),
      ...f.basis.map((b) => basisPart(b, observationRef)),
    ],
  });
}

function undeterminedPart(u: UndeterminedRuleJson): ParametersParameter {
  return part('undetermined', {
    part: [
      part('rule', { valueString: u.rule_name }),
      part('rule-id', { valueString: u.rule_id }),
      ...u.unknown_parameters.map((m) => part('missing', { valueString: m.display_name ?? m.parameter_name ?? 'an input' })),
    ],
  });
}

export interface ResultInput {
  /** The version this GuidanceResponse reports on. */
  version: VersionInfo;
  /** Its findings, each with its rank among all findings (1 = the primary recommendation). */
  findings: readonly { finding: FindingJson; rank: number }[];
  undetermined: readonly UndeterminedRuleJson[];
  /** The parameters each undetermined rule still needs (for dataRequirement). */
  missing: readonly Pick<EngineParameter, 'id' | 'display_name' | 'name'>[];
  completed: boolean;
  occurrence: string;
  requestIdentifier?: string;
  guidanceId: string;
  parametersId: string;
  /** How a resource is referred to: a Bundle's fullUrl or '#id' inside a contained resource. */
  ref: (resourceType: string, id: string) => string;
  observationRef: (parameterId: string) => string | undefined;
  reasonReference?: Reference[];
}

/**
 * The result as a GuidanceResponse for one rule-set version: the module is the version's
 * PlanDefinition; the findings (rule, version, severity, actions, the basis of each) are its
 * output Parameters; undetermined rules make the status data-required and list what is missing.
 */
export function guidanceResponse(ctx: FhirContext, r: ResultInput): [GuidanceResponse, Parameters | null] {
  const parameter = [...r.findings.map((f) => findingPart(f.finding, f.rank, r.observationRef)), ...r.undetermined.map(undeterminedPart)];
  const params: Parameters | null = parameter.length ? { resourceType: 'Parameters', id: r.parametersId, parameter } : null;
  const status: GuidanceResponse['status'] = !r.completed ? 'in-progress' : r.undetermined.length ? 'data-required' : 'success';
  const gr = clean({
    resourceType: 'GuidanceResponse',
    id: r.guidanceId,
    requestIdentifier: r.requestIdentifier ? { system: `${ctx.base}/api/assessments`, value: r.requestIdentifier } : undefined,
    moduleCanonical: `${planDefinitionUrl(ctx, r.version.rule_set_id)}|${r.version.version}`,
    status,
    occurrenceDateTime: r.occurrence,
    reasonReference: r.reasonReference,
    note: r.completed
      ? [
          {
            text: r.findings.length
              ? `${r.findings.length} finding${r.findings.length === 1 ? '' : 's'} from ${r.version.name} version ${r.version.version}.`
              : `No rule of ${r.version.name} version ${r.version.version} fired.`,
          },
        ]
      : undefined,
    outputParameters: params ? { reference: r.ref('Parameters', r.parametersId) } : undefined,
    dataRequirement: r.missing.map((p) => ({ type: 'Observation', codeFilter: [{ path: 'code', code: [parameterCoding(ctx, p)] }] })),
  }) as GuidanceResponse;
  return [gr, params];
}
