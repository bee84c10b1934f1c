import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { ListQuery } from '../../common/pagination';
import type { CaseListFilter } from './case-history';
import type { ChatSessionJson } from '@cds/contracts';
import type { Stored } from '../../common/stored';
import type { VersionRef } from './assessment.entity';
import { ChatSession, type ChatMessage, type ChatPending } from './chat-session.entity';

export type ChatSessionRow = Stored<ChatSessionJson, 'created_at' | 'updated_at' | 'completed_at'>;

/** The columns an answer or a choice changes; the rest of the row stays as it was. */
export type ChatChanges = Pick<
  ChatSessionRow,
  | 'session_data'
  | 'answered_parameters'
  | 'answer_details'
  | 'matched_rules'
  | 'conversation_history'
  | 'is_completed'
  | 'final_recommendations'
  | 'pending'
  | 'completed_at'
>;

export interface NewChatSession {
  user_id: string;
  rule_set_versions: VersionRef[];
  conversation_history: ChatMessage[];
  pending: ChatPending | null;
  created_at: Date;
}

const COLUMNS = [
  'id',
  'user_id',
  'session_data',
  'answered_parameters',
  'answer_details',
  'matched_rules',
  'conversation_history',
  'current_step',
  'is_completed',
  'final_recommendations',
  'pending',
  'rule_set_versions',
  'created_at',
  'updated_at',
  'completed_at',
];

const SORT: Record<string, string> = {
  created_at: 's.created_at',
  updated_at: 's.updated_at',
  completed_at: 's.completed_at',
  current_step: 's.current_step',
  id: 's.id',
};
export const CHAT_SESSION_SORTABLE = Object.keys(SORT);

const GENERATION = 'SELECT generation FROM knowledge_generation WHERE id = 1';

/** The only SQL of the Diagnostic Assistant's chatbot_sessions. */
@Injectable()
export class ChatSessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(s: NewChatSession): Promise<ChatSessionRow> {
    const result = await this.db
      .createQueryBuilder()
      .insert()
      .into(ChatSession)
      .values({ ...s, updated_at: s.created_at } as QueryDeepPartialEntity<ChatSession>)
      .returning(COLUMNS)
      .execute();
    return (result.raw as ChatSessionRow[])[0];
  }

  private select() {
    return this.db
      .createQueryBuilder()
      .from('chatbot_sessions', 's')
      .select(COLUMNS.map((c) => `s.${c} AS ${c}`));
  }

  /** `ownerId` narrows to one owner's session; null reads any (an administrator's view). */
  async find(id: string, ownerId: string | null): Promise<ChatSessionRow | null> {
    const qb = this.select().where('s.id = :id', { id });
    if (ownerId) qb.andWhere('s.user_id = :ownerId', { ownerId });
    return (await qb.getRawOne<ChatSessionRow>()) ?? null;
  }

  async list(q: ListQuery, f: CaseListFilter): Promise<{ rows: ChatSessionRow[]; total: number }> {
    const qb = this.select();
    if (f.user_id) qb.andWhere('s.user_id = :userId', { userId: f.user_id });
    if (f.is_completed !== undefined) qb.andWhere('s.is_completed = :completed', { completed: f.is_completed });
    if (f.ids) qb.andWhere('s.id IN (:...ids)', { ids: f.ids });
    const total = await qb.clone().getCount();
    const rows = await qb
      .orderBy(SORT[q.sort.field], q.sort.order, 'NULLS LAST')
      .addOrderBy('s.id', q.sort.order)
      .offset(q.offset)
      .limit(q.limit)
      .getRawMany<ChatSessionRow>();
    return { rows, total };
  }

  /**
   * Writes only if the session is still at `step` and the knowledge generation is still `generation` (null:
   * the decision used no kept fact); row null when another write or a knowledge change got there first.
   */
  async apply(
    id: string,
    step: number,
    c: ChatChanges,
    generation: number | null,
  ): Promise<{ row: ChatSessionRow | null; generation: number }> {
    const qb = this.db
      .createQueryBuilder()
      .update(ChatSession)
      .set({ ...c, current_step: () => 'current_step + 1', updated_at: () => 'now()' } as QueryDeepPartialEntity<ChatSession>)
      .where('id = :id AND current_step = :step', { id, step });
    if (generation !== null) qb.andWhere(`(${GENERATION}) = CAST(:generation AS bigint)`, { generation });
    const row = ((await qb.returning(COLUMNS).execute()).raw as ChatSessionRow[])[0] ?? null;
    if (row || generation === null) return { row, generation: generation ?? -1 };
    const [now] = (await this.db.query(GENERATION)) as { generation: string }[];
    return { row, generation: Number(now.generation) };
  }
}
