import { parseInstant, PLAUSIBLE_YEARS } from '../../common/dates';
import { FHIR_OPTION_SYSTEM_PATH, FHIR_SYSTEM, NOT_AVAILABLE, type AnswerInput, type AnswerOptionJson } from '@cds/contracts';
import { DomainError } from '../../common/errors';

/**
 * Reading a QuestionnaireResponse sent to $next-question: its shape is checked here (400
 * invalid_fhir_resource), and each answer becomes what the clinical form would have sent.
 */

type Json = Record<string, unknown>;

export interface ResponseItem {
  linkId: string;
  /** The answers in the order given; an item marked with a data-absent reason and no answer is one Not available. */
  answers: Json[];
  raw: Json;
}

export interface ParsedResponse {
  raw: Json;
  questionnaire: string;
  authored: Date | null;
  items: ResponseItem[];
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function invalidResource(field: string, message: string): DomainError {
  return new DomainError('invalid_fhir_resource', `${field}: ${message}`, [{ field, message }]);
}

const DATA_ABSENT_EXTENSION = 'http://hl7.org/fhir/StructureDefinition/data-absent-reason';

/** The QuestionnaireResponse itself, or a Parameters resource carrying it as `in` (SDC's form of the operation). */
export function parseResponse(body: unknown): ParsedResponse {
  let qr: unknown = body;
  if (isObject(body) && body.resourceType === 'Parameters') {
    const list = Array.isArray(body.parameter) ? body.parameter : [];
    qr = list.find((p): p is Json => isObject(p) && p.name === 'in')?.resource;
    if (qr === undefined) throw invalidResource('parameter', "a Parameters body must carry the QuestionnaireResponse as parameter 'in'");
  }
  if (!isObject(qr) || qr.resourceType !== 'QuestionnaireResponse') throw invalidResource('resourceType', 'must be QuestionnaireResponse');
  if (typeof qr.questionnaire !== 'string' || qr.questionnaire === '')
    throw invalidResource('questionnaire', 'must name the Questionnaire this response answers');
  const questionnaire = qr.questionnaire.startsWith('#') ? containedSource(qr, qr.questionnaire) : qr.questionnaire;
  let authored: Date | null = null;
  if (qr.authored !== undefined) {
    // The reference time of every "within N days" condition: a year 0 or 275760 would decide them all.
    authored = parseInstant(qr.authored);
    if (!authored)
      throw invalidResource(
        'authored',
        `must be a FHIR dateTime with a time and a time zone (such as 2026-11-02T10:15:00Z) in the years ${PLAUSIBLE_YEARS.min}-${PLAUSIBLE_YEARS.max}`,
      );
  }
  if (qr.item !== undefined && !Array.isArray(qr.item)) throw invalidResource('item', 'must be an array');
  if (qr.extension !== undefined && !Array.isArray(qr.extension)) throw invalidResource('extension', 'must be an array');
  const items = ((qr.item as unknown[] | undefined) ?? []).map((raw, i): ResponseItem => {
    const field = `item[${i}]`;
    if (!isObject(raw) || typeof raw.linkId !== 'string' || raw.linkId === '')
      throw invalidResource(`${field}.linkId`, 'every item needs a linkId');
    if (raw.item !== undefined) throw invalidResource(`${field}.item`, 'the questionnaire has no nested items');
    if (raw.extension !== undefined && !Array.isArray(raw.extension)) throw invalidResource(`${field}.extension`, 'must be an array');
    if (raw.answer !== undefined && (!Array.isArray(raw.answer) || !raw.answer.every(isObject)))
      throw invalidResource(`${field}.answer`, 'must be an array of answers');
    const answers = (raw.answer as Json[] | undefined) ?? [];
    const absent = Array.isArray(raw.extension) && raw.extension.some((e) => isObject(e) && e.url === DATA_ABSENT_EXTENSION);
    return {
      linkId: raw.linkId,
      answers: answers.length || !absent ? answers : [{ valueCoding: { system: FHIR_SYSTEM.dataAbsentReason } }],
      raw,
    };
  });
  return { raw: qr, questionnaire, authored, items };
}

/**
 * SDC's adaptive form: `questionnaire` points at the contained Questionnaire built so far, whose
 * `derivedFrom` names the adaptive Questionnaire it was built from.
 */
function containedSource(qr: Json, reference: string): string {
  const contained = (Array.isArray(qr.contained) ? qr.contained : []).find(
    (r): r is Json => isObject(r) && r.resourceType === 'Questionnaire' && `#${String(r.id)}` === reference,
  );
  if (!contained) throw invalidResource('questionnaire', `names ${reference.slice(0, 80)}, which is not a contained Questionnaire`);
  const derivedFrom = Array.isArray(contained.derivedFrom) ? contained.derivedFrom[0] : undefined;
  if (typeof derivedFrom !== 'string' || derivedFrom === '')
    throw invalidResource('contained.derivedFrom', 'the contained Questionnaire must name the Questionnaire it was derived from');
  return derivedFrom;
}

/** `<base>/api/fhir/Questionnaire/<id>|<version>` (or a relative `Questionnaire/<id>`): the id and the version, if given. */
export function questionnaireOf(canonical: string): { id: string; version: number | null } | null {
  const m = /(?:^|\/)Questionnaire\/([^/|]+)(?:\|(.*))?$/.exec(canonical);
  if (!m) return null;
  const version = m[2] === undefined ? null : /^[1-9]\d{0,8}$/.test(m[2]) ? Number(m[2]) : NaN;
  return { id: m[1], version: Number.isNaN(version) ? -1 : version };
}

/**
 * One answer as the clinical form would send it: a typed quantity or number (with its UCUM
 * unit), one of the question's options (by its code), or Not available (a data-absent reason).
 */
export function answerInput(
  answer: Json,
  options: readonly AnswerOptionJson[],
  optionSystem: string,
  field: string,
): { value: AnswerInput; unit?: string } {
  const keys = Object.keys(answer).filter((k) => k.startsWith('value'));
  if (keys.length !== 1) throw invalidResource(field, 'each answer needs exactly one value[x]');
  const key = keys[0];
  const v = answer[key];
  switch (key) {
    case 'valueCoding': {
      if (!isObject(v)) throw invalidResource(`${field}.valueCoding`, 'must be a Coding');
      if (v.system === FHIR_SYSTEM.dataAbsentReason) return { value: NOT_AVAILABLE };
      const index = typeof v.code === 'string' && /^[1-9]\d{0,3}$/.test(v.code) ? Number(v.code) - 1 : -1;
      if (v.system !== optionSystem || !options[index] || options[index].value === NOT_AVAILABLE) {
        throw invalidResource(`${field}.valueCoding`, `must be one of the question's answerOption codings (${optionSystem})`);
      }
      return { value: options[index].value };
    }
    case 'valueQuantity': {
      if (!isObject(v) || typeof v.value !== 'number') throw invalidResource(`${field}.valueQuantity`, 'must be a Quantity with a value');
      if (v.system !== undefined && v.system !== FHIR_SYSTEM.ucum)
        throw invalidResource(`${field}.valueQuantity.system`, `must be ${FHIR_SYSTEM.ucum}`);
      const unit = typeof v.code === 'string' ? v.code : undefined;
      return unit === undefined ? { value: v.value } : { value: v.value, unit };
    }
    case 'valueDecimal':
    case 'valueInteger':
      if (typeof v !== 'number') throw invalidResource(`${field}.${key}`, 'must be a number');
      return { value: v };
    case 'valueBoolean':
      if (typeof v !== 'boolean') throw invalidResource(`${field}.${key}`, 'must be true or false');
      return { value: v };
    case 'valueString':
    case 'valueDate':
    case 'valueDateTime':
      if (typeof v !== 'string') throw invalidResource(`${field}.${key}`, 'must be a string');
      return { value: v };
    default:
      throw invalidResource(
        `${field}.${key}`,
        'this questionnaire takes Coding, Quantity, decimal, integer, boolean, string or date answers',
      );
  }
}

export const optionSystem = (base: string) => `${base}${FHIR_OPTION_SYSTEM_PATH}`;
