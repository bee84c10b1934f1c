import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { notFound, validationFailed } from '../../common/errors';
import { boundaryVignettes, type Answers } from '@cds/engine';
import type { BoundaryVignetteJson, VignetteJson, VignetteRunJson } from '@cds/contracts';
import type { AuthUser } from '../../common/auth-user';
import { answerErrors } from './rule-content';
import { describeRun, loadCombination, runOn, vignetteJson, type Combination } from './publish-gate';
import { draftContent, findRuleSet } from './rule-store';
import type { CreateVignetteDto, RunVignetteDto, UpdateVignetteDto } from './rule-sets.dto';
import type { RuleSetTestCase } from './rule-set-test-case.entity';
import { RuleSetsRepository } from './rule-sets.repository';

/**
 * Rule-set test cases as patient vignettes, run on what a PCP would get: the set's saved active
 * rules together with every other active published rule set.
 */
@Injectable()
export class RuleSetVignettesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: RuleSetsRepository,
  ) {}

  private async combination(m: EntityManager, ruleSetId: string): Promise<Combination> {
    const set = await findRuleSet(m, ruleSetId);
    return loadCombination(m, set, (await draftContent(m, ruleSetId)).rules);
  }

  private checkAnswers(c: Combination, answers: Record<string, unknown>): void {
    const errors = answerErrors(answers, new Map(c.parameters.map((p) => [p.id, p])));
    if (errors.length) throw validationFailed(errors);
  }

  private checkExpectation(c: Combination, fired: readonly string[] | undefined, primary: string | null | undefined): void {
    const known = new Set(c.rules.map((r) => r.id));
    const unknown = (fired ?? []).filter((id) => !known.has(id));
    if (unknown.length)
      throw validationFailed([
        { field: 'expected_fired', message: `expected_fired names rules that are not active: ${unknown.join(', ')}` },
      ]);
    if (primary && fired && !fired.includes(primary))
      throw validationFailed([{ field: 'expected_primary', message: 'expected_primary must be one of expected_fired' }]);
    if (primary === null && fired && fired.length)
      throw validationFailed([{ field: 'expected_primary', message: 'expected_primary is required when rules are expected to fire' }]);
  }

  async run(ruleSetId: string, dto: RunVignetteDto): Promise<VignetteRunJson> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const c = await this.combination(m, ruleSetId);
      this.checkAnswers(c, dto.answers);
      return describeRun(c, runOn(c, dto.answers as Answers, dto.reference_date ? new Date(dto.reference_date) : null));
    });
  }

  /** t − one step, t and t + one step at every cut-point the set's rules use, each with its result. */
  async boundaries(ruleSetId: string): Promise<BoundaryVignetteJson[]> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const c = await this.combination(m, ruleSetId);
      const own = c.rules.filter((r) => c.own.has(r.id));
      const cuts = boundaryVignettes(own, c.parameters);
      // Results on the whole combination: what the PCP would get for that value.
      return cuts.map((v) => ({ ...v, result: describeRun(c, runOn(c, v.answers, null)) }));
    });
  }

  async list(ruleSetId: string): Promise<VignetteJson[]> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const c = await this.combination(m, ruleSetId);
      return (await this.repo.vignettes(m, ruleSetId)).map((v) => vignetteJson(c, v));
    });
  }

  async create(actor: AuthUser, ruleSetId: string, dto: CreateVignetteDto): Promise<VignetteJson> {
    const id = await this.db.transaction(async (m) => {
      const c = await this.combination(m, ruleSetId);
      this.checkAnswers(c, dto.answers);
      this.checkExpectation(c, dto.expected_fired, dto.expected_primary ?? null);
      return this.repo.insertVignette(m, {
        rule_set_id: ruleSetId,
        name: dto.name,
        answers: dto.answers as Answers,
        expected_fired: [...new Set(dto.expected_fired)],
        expected_primary: dto.expected_primary ?? null,
        reference_date: dto.reference_date ? new Date(dto.reference_date) : null,
        created_by: actor.id,
      });
    });
    return this.get(ruleSetId, id);
  }

  async update(ruleSetId: string, caseId: string, dto: UpdateVignetteDto): Promise<VignetteJson> {
    await this.db.transaction(async (m) => {
      const existing = await this.find(m, ruleSetId, caseId, true);
      const c = await this.combination(m, ruleSetId);
      if (dto.answers !== undefined) this.checkAnswers(c, dto.answers);
      const fired = dto.expected_fired ?? existing.expected_fired;
      const primary = dto.expected_primary !== undefined ? dto.expected_primary : existing.expected_primary;
      if (dto.expected_fired !== undefined || dto.expected_primary !== undefined) this.checkExpectation(c, fired, primary);
      const next: Partial<RuleSetTestCase> = {};
      if (dto.name !== undefined) next.name = dto.name;
      if (dto.answers !== undefined) next.answers = dto.answers as Answers;
      if (dto.expected_fired !== undefined) next.expected_fired = [...new Set(dto.expected_fired)];
      if (dto.expected_primary !== undefined) next.expected_primary = dto.expected_primary;
      if (dto.reference_date !== undefined) next.reference_date = dto.reference_date ? new Date(dto.reference_date) : null;
      if (Object.keys(next).length) await this.repo.updateVignette(m, caseId, next);
    });
    return this.get(ruleSetId, caseId);
  }

  async remove(ruleSetId: string, caseId: string): Promise<VignetteJson> {
    const json = await this.get(ruleSetId, caseId);
    await this.repo.deleteVignette(ruleSetId, caseId);
    return json;
  }

  private async get(ruleSetId: string, caseId: string): Promise<VignetteJson> {
    return this.db.transaction('REPEATABLE READ', async (m) => {
      const c = await this.combination(m, ruleSetId);
      return vignetteJson(c, await this.find(m, ruleSetId, caseId));
    });
  }

  private async find(m: EntityManager, ruleSetId: string, caseId: string, lock = false): Promise<RuleSetTestCase> {
    const v = await this.repo.findVignette(m, ruleSetId, caseId, lock);
    if (!v) throw notFound('Test case');
    return v;
  }
}
