import type { ImpactGroupJson, ImpactPreviewJson } from '@cds/contracts';
import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast } from '../support/factories';
import { streamedLines } from '../support/ndjson';
import {
  action,
  cond,
  createParameter,
  createPublishedRuleSet,
  createRule,
  createRuleSet,
  expectStatus,
  FIXTURE_ACKNOWLEDGEMENT,
  previewImpact,
  publish,
  runAssessment,
  uniqueName,
  updateRule,
  type ParameterJson,
} from '../support/clinical-factories';

/**
 * Issue 13, deliverable 3: before publishing, the admin sees how the draft reclassifies recorded
 * assessments, the rule set's vignettes and 10,000 generated patients; publishing names that
 * preview, a stale one is refused, and the preview is kept with the version.
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

const post = (path: string, body: object = {}) => t.http().post(path).set(cast.admin.auth).send(body);
const get = (path: string) => t.http().get(path).set(cast.admin.auth);
const group = (p: ImpactPreviewJson, key: ImpactGroupJson['key']) => p.groups.find((g) => g.key === key)!;

/** ADA: T2D from A1C 6.5 %, prediabetes 5.7 to < 6.5 %, published as version 1. */
async function a1cSet() {
  const p: ParameterJson = await createParameter(t, cast.admin, {
    name: uniqueName('a1c'),
    display_name: 'HbA1c',
    data_type: 'lab_range',
    units: '%',
    validation_rules: { decimals: 1, min: 3, max: 20 },
  });
  const set = await createRuleSet(t, cast.admin, { name: uniqueName('Glycaemia') });
  const t2d = await createRule(t, cast.admin, set, {
    name: 'Type 2 diabetes (A1C)',
    conditions: [cond(p, '>=', 6.5)],
    actions: [action('Diagnose type 2 diabetes', { severity: 'high' })],
  });
  const pre = await createRule(t, cast.admin, set, {
    name: 'Prediabetes (A1C)',
    conditions: [cond(p, '>=', 5.7), cond(p, '<', 6.5)],
    actions: [action('Diabetes prevention programme', { type: 'lifestyle', severity: 'medium' })],
  });
  return { p, set, t2d, pre };
}

describe('raising the A1C diagnosis threshold to 7.0 reclassifies a 6.7 % patient from T2D to prediabetes', () => {
  it('shows the move in every group with the diabetes rule responsible, examples one click away, and stores the preview', async () => {
    const { p, set, t2d, pre } = await a1cSet();
    expectStatus(
      await post(`/api/rule-sets/${set.id}/test-cases`, {
        name: 'A1C 6.7 %',
        answers: { [p.id]: 6.7 },
        expected_fired: [t2d.id],
        expected_primary: t2d.id,
      }),
      201,
      'vignette',
    );
    await publish(t, cast.admin, set);
    const { result } = await runAssessment(t, cast.pcp, { [p.id]: 6.7 });
    expect(result.recommendation?.rule_name).toBe('Type 2 diabetes (A1C)');

    await updateRule(t, cast.admin, t2d, { conditions: [cond(p, '>=', 7.0)] });
    await updateRule(t, cast.admin, pre, { conditions: [cond(p, '>=', 5.7), cond(p, '<', 7.0)] });
    const preview = await previewImpact(t, cast.admin, set);

    expect(preview).toMatchObject({
      rule_set_id: set.id,
      base_version: 1,
      version_id: null,
      created_by: cast.admin.id,
      created_by_email: cast.admin.email,
    });
    expect(preview.groups.map((g) => g.key)).toEqual(['assessments', 'vignettes', 'generated']);
    const move = {
      from: { rule_id: t2d.id, rule_name: 'Type 2 diabetes (A1C)', rule_set_name: set.name, severity: 'high' },
      to: { rule_id: pre.id, rule_name: 'Prediabetes (A1C)', rule_set_name: set.name, severity: 'medium' },
      cause: { rule_id: t2d.id, rule_name: 'Type 2 diabetes (A1C)' },
      cause_kind: 'edited',
    };
    expect(group(preview, 'vignettes')).toMatchObject({
      patients: 1,
      changed: 1,
      transitions: [{ ...move, count: 1 }],
      more_transitions: 0,
    });
    expect(group(preview, 'vignettes').transitions[0].examples).toEqual([
      { label: 'A1C 6.7 %', answers: { [p.id]: 6.7 }, values: [{ parameter: 'HbA1c', value: '6.7 %' }] },
    ]);
    const recorded = group(preview, 'assessments').transitions.find((x) => x.from?.rule_id === t2d.id);
    expect(recorded).toMatchObject({ ...move, count: 1 });
    expect(recorded!.examples[0].answers[p.id]).toBe(6.7);

    const generated = group(preview, 'generated');
    expect(generated.patients).toBe(10_000);
    const drawn = generated.transitions.find((x) => x.from?.rule_id === t2d.id && x.to?.rule_id === pre.id)!;
    expect(drawn).toMatchObject(move);
    expect(drawn.examples.length).toBe(5);
    for (const e of drawn.examples) expect(e.answers[p.id]).toEqual(expect.any(Number));
    for (const e of drawn.examples) expect([6.5, 6.6, 6.7, 6.8, 6.9]).toContain(e.answers[p.id]);
    // Nothing else moves: 6.5 to 6.9 % is the only band the edit touches.
    expect(generated.transitions.filter((x) => x.cause.rule_id === t2d.id || x.cause.rule_id === pre.id)).toEqual([drawn]);

    expect((await get(`/api/rule-sets/${set.id}/impact-preview/${preview.id}`)).body).toEqual(preview);
  });

  // Issue 20: only the primary recommendation was compared, so a lost diagnosis behind a crisis went unseen.
  it('a patient whose top finding is a hypertensive crisis still shows "Type 2 diabetes (A1C)" lost', async () => {
    const { p, set, t2d } = await a1cSet();
    const sbp: ParameterJson = await createParameter(t, cast.admin, {
      name: uniqueName('sbp'),
      display_name: 'Systolic BP',
      data_type: 'vitals',
      units: 'mm[Hg]',
      validation_rules: { decimals: 0, min: 50, max: 300 },
    });
    const crisis = await createRule(t, cast.admin, set, {
      name: 'Hypertensive crisis',
      priority: 100,
      conditions: [cond(sbp, '>', 180)],
      actions: [action('Same-day evaluation', { severity: 'critical' })],
    });
    expectStatus(
      await post(`/api/rule-sets/${set.id}/test-cases`, {
        name: 'A1C 6.7 %, SBP 190 mmHg',
        answers: { [p.id]: 6.7, [sbp.id]: 190 },
        expected_fired: [crisis.id, t2d.id],
        expected_primary: crisis.id,
      }),
      201,
      'vignette',
    );
    await publish(t, cast.admin, set);
    await updateRule(t, cast.admin, t2d, { conditions: [cond(p, '>=', 7.0)] });
    const preview = await previewImpact(t, cast.admin, set);
    const vignettes = group(preview, 'vignettes');
    expect(vignettes).toMatchObject({ patients: 1, changed: 0, transitions: [], findings_changed: 1, more_finding_changes: 0 });
    expect(vignettes.finding_changes).toEqual([
      {
        rule: { rule_id: t2d.id, rule_name: 'Type 2 diabetes (A1C)', rule_set_name: set.name, severity: 'high' },
        change: 'lost',
        cause_kind: 'edited',
        count: 1,
        same_primary: 1,
        examples: [
          {
            label: 'A1C 6.7 %, SBP 190 mmHg',
            answers: { [p.id]: 6.7, [sbp.id]: 190 },
            values: [
              { parameter: 'HbA1c', value: '6.7 %' },
              { parameter: 'Systolic BP', value: '190 mmHg' },
            ],
          },
        ],
      },
    ]);
    // In the generated population too, every patient who loses the finding is at 6.5 to 6.9 %.
    const lost = group(preview, 'generated').finding_changes!.find((c) => c.rule.rule_id === t2d.id && c.change === 'lost')!;
    expect(lost.count).toBeGreaterThan(0);
    expect(lost.same_primary).toBeGreaterThan(0);
    for (const e of lost.examples) expect([6.5, 6.6, 6.7, 6.8, 6.9]).toContain(e.answers[p.id]);
  });

  it('the same draft previewed twice draws the same generated population', async () => {
    const { p, set, t2d } = await a1cSet();
    await publish(t, cast.admin, set);
    await updateRule(t, cast.admin, t2d, { conditions: [cond(p, '>=', 7.0)] });
    const [a, b] = [await previewImpact(t, cast.admin, set), await previewImpact(t, cast.admin, set)];
    expect(a.id).not.toBe(b.id);
    expect(group(a, 'generated')).toEqual(group(b, 'generated'));
    expect(group(a, 'generated').changed).toBeGreaterThan(0);
  });
});

/** The streamed answer's lines, parsed. */
const streamedPreview = (ruleSetId: string) =>
  streamedLines<ImpactPreviewJson>(t.http().post(`/api/rule-sets/${ruleSetId}/impact-preview`).set(cast.admin.auth));

// Issue 23: the admin waits 1 to 4 s for a preview; the dialog shows how many patients are compared, from the server's own count.
describe('the admin watching the A1C threshold preview being computed', () => {
  it('with Accept: application/x-ndjson, progress after each slice of patients, then the stored preview', async () => {
    const { p, set, t2d, pre } = await a1cSet();
    expectStatus(
      await post(`/api/rule-sets/${set.id}/test-cases`, {
        name: 'A1C 7.2 %',
        answers: { [p.id]: 7.2 },
        expected_fired: [t2d.id],
        expected_primary: t2d.id,
      }),
      201,
      'vignette',
    );
    await publish(t, cast.admin, set);
    await runAssessment(t, cast.pcp, { [p.id]: 6.7 });
    await updateRule(t, cast.admin, t2d, { conditions: [cond(p, '>=', 7.0)] });
    await updateRule(t, cast.admin, pre, { conditions: [cond(p, '>=', 5.7), cond(p, '<', 7.0)] });
    const [{ recorded }] = await t.db.query(`SELECT count(*)::int AS recorded FROM assessments WHERE answers <> '{}'::jsonb`);

    const { res, lines } = await streamedPreview(set.id);
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const progress = lines.slice(0, -1).map((l) => l.progress!);
    const total = recorded + 1 + 10_000;
    expect(progress.every((x) => x.total === total)).toBe(true);
    expect(progress[0].done).toBe(0);
    expect(progress.at(-1)!.done).toBe(total);
    // Every slice moves the count on, by at most 500 patients: 10,000 generated patients are at least 20 slices.
    const steps = progress.slice(1).map((x, i) => x.done - progress[i].done);
    expect(steps.every((d) => d > 0 && d <= 500)).toBe(true);
    expect(steps.length).toBeGreaterThanOrEqual(20);

    const { preview } = lines.at(-1)!;
    expect(preview!.groups.map((g) => g.patients)).toEqual([recorded, 1, 10_000]);
    const moved = group(preview!, 'generated').transitions.find((x) => x.from?.rule_id === t2d.id && x.to?.rule_id === pre.id);
    expect(moved!.count).toBeGreaterThan(0);
    expect(group(preview!, 'vignettes').changed).toBe(0);
    expect((await get(`/api/rule-sets/${set.id}/impact-preview/${preview!.id}`)).body).toEqual(preview);
    // The preview it streamed publishes like any other.
    expectStatus(
      await post(`/api/rule-sets/${set.id}/publish`, { impact_preview_id: preview!.id, ...FIXTURE_ACKNOWLEDGEMENT }),
      201,
      'publish',
    );
  });

  it('an unknown rule set is a plain 404 error body before any line; a PCP is refused', async () => {
    const { res } = await streamedPreview('00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(JSON.parse(String(res.body))).toMatchObject({ statusCode: 404, code: 'not_found' });
    const { set } = await a1cSet();
    const pcp = await t.http().post(`/api/rule-sets/${set.id}/impact-preview`).set(cast.pcp.auth).set('Accept', 'application/x-ndjson');
    expect(pcp.status).toBe(403);
  });
});

describe('publishing only after the preview', () => {
  it('without a preview 409; with it 201 and the preview is kept with the version; the same preview cannot publish again', async () => {
    const { set } = await a1cSet();
    const before = await counts(t, ['rule_set_versions']);
    const refused = await post(`/api/rule-sets/${set.id}/publish`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflict', details: { impact_preview: 'required' } });
    expect(refused.body.message).toContain('impact preview');
    expect(await counts(t, ['rule_set_versions'])).toEqual(before);

    const preview = await previewImpact(t, cast.admin, set);
    expect(preview.base_version).toBeNull();
    const ok = await post(`/api/rule-sets/${set.id}/publish`, { impact_preview_id: preview.id });
    expect(ok.status).toBe(201);
    const kept = (await get(`/api/rule-sets/${set.id}/versions/1/impact-preview`)).body;
    expect(kept).toEqual({ ...preview, version_id: ok.body.id, version_number: 1 });
    expect((await get(`/api/rule-sets/${set.id}/versions/2/impact-preview`)).status).toBe(404);
    expect((await get(`/api/rule-sets/${set.id}/versions/x/impact-preview`)).status).toBe(404);
  });

  it('a preview of an earlier draft is stale: 409, nothing published; a fresh preview publishes', async () => {
    const { p, set, t2d } = await a1cSet();
    const seen = await previewImpact(t, cast.admin, set);
    await updateRule(t, cast.admin, t2d, { conditions: [cond(p, '>=', 7.0)] });
    const before = await counts(t, ['rule_set_versions']);
    const stale = await post(`/api/rule-sets/${set.id}/publish`, { impact_preview_id: seen.id });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'conflict', details: { impact_preview: 'stale' } });
    expect(stale.body.message).toBe('The draft changed since this impact preview was made; review the new preview before publishing.');
    expect(await counts(t, ['rule_set_versions'])).toEqual(before);
    expect((await publish(t, cast.admin, set)).number).toBe(1);
  });

  it('a preview made before another publish of the set is stale even when the draft is back to the same content', async () => {
    const { p, set, t2d } = await a1cSet();
    const early = await previewImpact(t, cast.admin, set);
    await updateRule(t, cast.admin, t2d, { conditions: [cond(p, '>=', 7.0)] });
    await publish(t, cast.admin, set);
    await updateRule(t, cast.admin, t2d, { conditions: [cond(p, '>=', 6.5)] });
    const res = await post(`/api/rule-sets/${set.id}/publish`, { impact_preview_id: early.id });
    expect(res.status).toBe(409);
    expect(res.body.details).toMatchObject({ impact_preview: 'stale' });
  });

  it("another set's preview is 404, a malformed id 400, an unknown rule set 404", async () => {
    const { set } = await a1cSet();
    const { set: other } = await a1cSet();
    const foreign = await previewImpact(t, cast.admin, other);
    expect((await post(`/api/rule-sets/${set.id}/publish`, { impact_preview_id: foreign.id })).status).toBe(404);
    expect((await get(`/api/rule-sets/${set.id}/impact-preview/${foreign.id}`)).status).toBe(404);
    const bad = await post(`/api/rule-sets/${set.id}/publish`, { impact_preview_id: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    expect((await post('/api/rule-sets/00000000-0000-4000-8000-000000000000/impact-preview')).status).toBe(404);
  });
});

describe('the change list says what changed in each rule, old → new', () => {
  it('lowering the BMI cut-point to 27.5 and raising its priority reads with values and units; an added rule is described whole', async () => {
    const bmi = await createParameter(t, cast.admin, {
      name: uniqueName('bmi'),
      display_name: 'BMI',
      data_type: 'calculated',
      units: 'kg/m2',
      validation_rules: { decimals: 1, min: 10, max: 80 },
    });
    const set = await createRuleSet(t, cast.admin, { name: uniqueName('Weight') });
    const obesity = await createRule(t, cast.admin, set, {
      name: 'Obesity',
      priority: 10,
      conditions: [cond(bmi, '>=', 30)],
      actions: [action('Weight management programme', { severity: 'medium' })],
    });
    await publish(t, cast.admin, set);
    await updateRule(t, cast.admin, obesity, {
      priority: 20,
      conditions: [cond(bmi, '>=', 27.5)],
      actions: [action('Weight management programme', { severity: 'high' })],
    });
    const over = await createRule(t, cast.admin, set, {
      name: 'Overweight',
      priority: 5,
      conditions: [cond(bmi, '>=', 25), cond(bmi, '<', 27.5)],
      actions: [action('Lifestyle advice', { severity: 'low' })],
    });
    const preview = await previewImpact(t, cast.admin, set);
    expect(preview.changes).toEqual([
      {
        rule_id: obesity.id,
        rule_name: 'Obesity',
        kind: 'edited',
        details: [
          { field: 'conditions', before: 'BMI ≥ 30 kg/m²', after: 'BMI ≥ 27.5 kg/m²' },
          { field: 'priority', before: '10', after: '20' },
          { field: 'severity', before: 'medium', after: 'high' },
          { field: 'actions', before: 'medium: Weight management programme', after: 'high: Weight management programme' },
        ],
      },
      {
        rule_id: over.id,
        rule_name: 'Overweight',
        kind: 'added',
        details: [
          { field: 'conditions', before: null, after: 'BMI ≥ 25 kg/m² and BMI < 27.5 kg/m²' },
          { field: 'priority', before: null, after: '5' },
          { field: 'severity', before: null, after: 'low' },
          { field: 'actions', before: null, after: 'low: Lifestyle advice' },
        ],
      },
    ]);
    // Kept with the version it publishes.
    const version = await publish(t, cast.admin, set, { impact_preview_id: preview.id, ...FIXTURE_ACKNOWLEDGEMENT });
    expect((await get(`/api/rule-sets/${set.id}/versions/${version.number}/impact-preview`)).body.changes).toEqual(preview.changes);
  });
});

describe('a preview is stale once another active rule set is published', () => {
  it('409 stale after another set publishes in between (recorded patients get the combination); a fresh preview publishes', async () => {
    const { p, set, t2d } = await a1cSet();
    await publish(t, cast.admin, set);
    await updateRule(t, cast.admin, t2d, { conditions: [cond(p, '>=', 7.0)] });
    const seen = await previewImpact(t, cast.admin, set);
    // Another set now sends 6.5 to 6.9 % patients elsewhere: what the admin saw is no longer what publishing does.
    await createPublishedRuleSet(t, cast.admin, [
      {
        name: 'Treat A1C 6.5+ as diabetes',
        priority: 50,
        conditions: [cond(p, '>=', 6.5)],
        actions: [action('Refer', { severity: 'critical' })],
      },
    ]);
    const before = await counts(t, ['rule_set_versions']);
    const stale = await post(`/api/rule-sets/${set.id}/publish`, { impact_preview_id: seen.id, ...FIXTURE_ACKNOWLEDGEMENT });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'conflict', details: { impact_preview: 'stale' } });
    expect(stale.body.message).toContain('Another rule set was published');
    expect(await counts(t, ['rule_set_versions'])).toEqual(before);
    expect((await publish(t, cast.admin, set)).number).toBe(2);
  });
});

describe('previews not published with a version are cleaned up', () => {
  const unreferenced = async (setId: string): Promise<string[]> =>
    (
      await t.db.query(`SELECT id FROM rule_set_impact_previews WHERE rule_set_id = $1 AND version_id IS NULL ORDER BY created_at DESC`, [
        setId,
      ])
    ).map((r: { id: string }) => r.id);

  it('a new preview deletes unreferenced ones older than 24 h and keeps the newest 10 per set; a version keeps its preview forever', async () => {
    const { set } = await a1cSet();
    const { set: other } = await a1cSet();
    await publish(t, cast.admin, set);
    const old = await previewImpact(t, cast.admin, set);
    const otherOld = await previewImpact(t, cast.admin, other);
    await t.db.query(`UPDATE rule_set_impact_previews SET created_at = now() - interval '25 hours' WHERE rule_set_id = ANY($1)`, [
      [set.id, other.id],
    ]);
    // Eleven recent unreferenced previews of the set, one to eleven minutes old.
    const recent: { id: string }[] = await t.db.query(
      `INSERT INTO rule_set_impact_previews (rule_set_id, draft_hash, base_version, seed, groups, elapsed_ms, created_by, created_at)
       SELECT rule_set_id, draft_hash, base_version, seed, groups, elapsed_ms, created_by, now() - make_interval(mins => k)
         FROM rule_set_impact_previews, generate_series(1, 11) AS k WHERE id = $1
       ORDER BY k RETURNING id`,
      [old.id],
    );
    expect(await unreferenced(set.id)).toHaveLength(12);

    const fresh = await previewImpact(t, cast.admin, set);
    expect(await unreferenced(set.id)).toEqual([fresh.id, ...recent.slice(0, 9).map((r) => r.id)]);
    expect(await unreferenced(other.id)).not.toContain(otherOld.id);
    expect((await get(`/api/rule-sets/${set.id}/impact-preview/${old.id}`)).status).toBe(404);
    // Version 1's preview is 25 hours old too, and stays.
    expect((await get(`/api/rule-sets/${set.id}/versions/1/impact-preview`)).status).toBe(200);
  });
});
