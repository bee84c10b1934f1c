import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { openSessionIdentity } from '../auth';
import { Parameter } from '../parameters/parameter.entity';
import type { ProviderName } from './providers/polish-providers';

export type PolishableParameter = Pick<
  Parameter,
  'id' | 'name' | 'display_name' | 'category' | 'data_type' | 'units' | 'question_override' | 'polished_question' | 'polished_input_hash'
>;

const COLUMNS: Array<keyof PolishableParameter> = [
  'id',
  'name',
  'display_name',
  'category',
  'data_type',
  'units',
  'question_override',
  'polished_question',
  'polished_input_hash',
];

/** The polish module's only access to the database: the parameters it polishes, the dashboard's session check. */
@Injectable()
export class PolishRepository {
  constructor(
    @InjectRepository(Parameter) private readonly parameters: Repository<Parameter>,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  /**
   * The role of an open session's user ('' without a role), or null when the session is gone or revoked:
   * the auth module's own check, the one every bearer request makes.
   */
  async openSessionRole(sessionId: string, userId: string): Promise<string | null> {
    const identity = await openSessionIdentity(this.db.manager, sessionId, userId);
    return identity ? (identity.role ?? '') : null;
  }

  find(id: string): Promise<PolishableParameter | null> {
    return this.parameters
      .createQueryBuilder('p')
      .select(COLUMNS.map((c) => `p.${c}`))
      .where('p.id = :id', { id })
      .getOne();
  }

  /** Case-insensitive, preferring a live parameter over a template or a retired one. */
  async findByName(name: string): Promise<PolishableParameter | null> {
    return this.parameters
      .createQueryBuilder('p')
      .select(COLUMNS.map((c) => `p.${c}`))
      .where('lower(p.name) = lower(:name)', { name })
      .orderBy('p.is_active', 'DESC')
      .addOrderBy('p.is_template', 'ASC')
      .addOrderBy('p.created_at', 'ASC')
      .getOne();
  }

  /** For the start-up sweep; the catalogue is hundreds of rows, not millions. */
  all(): Promise<PolishableParameter[]> {
    return this.parameters
      .createQueryBuilder('p')
      .select(COLUMNS.map((c) => `p.${c}`))
      .getMany();
  }

  /**
   * Stores the polished question only if the parameter still has the input it was polished
   * from (one conditional UPDATE, so an edit in between wins). Never touches question_override.
   * Returns false when the row is gone or has changed.
   */
  async savePolished(p: PolishableParameter, question: string, provider: ProviderName, inputHash: string): Promise<boolean> {
    const result = await this.parameters
      .createQueryBuilder()
      .update(Parameter)
      .set({
        polished_question: question,
        polished_provider: provider,
        polished_input_hash: inputHash,
        polished_at: () => 'now()',
        // A worker's write is not an edit by a person.
        updated_at: () => '"updated_at"',
      })
      .where('id = :id', { id: p.id })
      .andWhere('name = :name AND display_name = :displayName AND category = :category AND data_type = :dataType', {
        name: p.name,
        displayName: p.display_name,
        category: p.category,
        dataType: p.data_type,
      })
      .andWhere('units IS NOT DISTINCT FROM :units', { units: p.units })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
