import { parseInstant, PLAUSIBLE_YEARS } from '../../common/dates';
import { DomainError } from '../../common/errors';

/** One feedback item (CDS Hooks 2.0 §Feedback), checked. */
export interface FeedbackItem {
  card: string;
  outcome: 'accepted' | 'overridden';
  override_reason: { system?: string; code?: string; display?: string } | null;
  user_comment: string | null;
  outcome_at: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_ITEMS = 50;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (field: string, message: string) => new DomainError('invalid_feedback', message, [{ field, message }]);

function coding(v: unknown, field: string): FeedbackItem['override_reason'] {
  if (v === undefined || v === null) return null;
  if (!isObject(v)) throw bad(field, `${field} must be a Coding { system, code, display }`);
  const out: NonNullable<FeedbackItem['override_reason']> = {};
  for (const k of ['system', 'code', 'display'] as const) {
    const x = v[k];
    if (x === undefined) continue;
    if (typeof x !== 'string' || x.length > 500) throw bad(`${field}.${k}`, `${field}.${k} must be text of at most 500 characters`);
    out[k] = x;
  }
  if (!out.code) throw bad(`${field}.code`, `${field}.code is required`);
  return out;
}

/** `{ feedback: [{ card, outcome, overrideReason?, outcomeTimestamp }] }` → checked items (400 invalid_feedback otherwise). */
export function parseFeedback(body: unknown): FeedbackItem[] {
  if (!isObject(body) || !Array.isArray(body.feedback) || body.feedback.length === 0)
    throw bad('feedback', 'A feedback request is { feedback: [ { card, outcome, outcomeTimestamp } ] }');
  if (body.feedback.length > MAX_ITEMS) throw bad('feedback', `At most ${MAX_ITEMS} feedback items per request`);
  const seen = new Set<string>();
  return body.feedback.map((f: unknown, i: number) => {
    const at = `feedback[${i}]`;
    if (!isObject(f)) throw bad(at, `${at} must be an object`);
    if (typeof f.card !== 'string' || !UUID.test(f.card)) throw bad(`${at}.card`, `${at}.card must be the uuid of a card we returned`);
    if (seen.has(f.card.toLowerCase())) throw bad(`${at}.card`, `${at}.card appears twice`);
    seen.add(f.card.toLowerCase());
    if (f.outcome !== 'accepted' && f.outcome !== 'overridden') throw bad(`${at}.outcome`, `${at}.outcome must be accepted or overridden`);
    const when = parseInstant(f.outcomeTimestamp);
    if (!when)
      throw bad(
        `${at}.outcomeTimestamp`,
        `${at}.outcomeTimestamp must be an RFC 3339 date-time with an offset (such as 2026-11-02T10:15:00Z) in the years ${PLAUSIBLE_YEARS.min}-${PLAUSIBLE_YEARS.max}`,
      );
    let reason: FeedbackItem['override_reason'] = null;
    let comment: string | null = null;
    if (f.overrideReason !== undefined && f.overrideReason !== null) {
      if (f.outcome !== 'overridden') throw bad(`${at}.overrideReason`, `${at}.overrideReason goes only with outcome overridden`);
      if (!isObject(f.overrideReason)) throw bad(`${at}.overrideReason`, `${at}.overrideReason must be { reason?, userComment? }`);
      reason = coding(f.overrideReason.reason, `${at}.overrideReason.reason`);
      const c = f.overrideReason.userComment;
      if (c !== undefined && c !== null) {
        if (typeof c !== 'string' || c.length > 2000)
          throw bad(`${at}.overrideReason.userComment`, `${at}.overrideReason.userComment must be text of at most 2000 characters`);
        comment = c;
      }
    }
    return { card: f.card.toLowerCase(), outcome: f.outcome, override_reason: reason, user_comment: comment, outcome_at: when };
  });
}
