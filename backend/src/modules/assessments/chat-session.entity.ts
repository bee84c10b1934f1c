import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { ActionJson, AnswerDetailJson, ChatMatchedRuleJson, ChatMessageJson, ChatPendingJson } from '@cds/contracts';
import type { Answers } from '@cds/engine';
import { User } from '../users/user.entity';
import type { VersionRef } from './assessment.entity';

export type ChatMessage = ChatMessageJson;
export type ChatPending = ChatPendingJson;
export type MatchedRule = ChatMatchedRuleJson;

/** docs/product-spec.md section 3's chatbot session, plus what it waits for and the versions it was decided with. */
@Entity('chatbot_sessions')
@Check('CHK_chatbot_sessions_step', `"current_step" >= 1`)
@Check('CHK_chatbot_sessions_data', `jsonb_typeof("session_data") = 'object'`)
@Check(
  'CHK_chatbot_sessions_lists',
  `jsonb_typeof("answered_parameters") = 'array' AND jsonb_typeof("matched_rules") = 'array' AND jsonb_typeof("conversation_history") = 'array' AND jsonb_typeof("rule_set_versions") = 'array' AND jsonb_typeof("answer_details") = 'array'`,
)
@Check(
  'CHK_chatbot_sessions_completion',
  `"is_completed" = ("completed_at" IS NOT NULL) AND ("pending" IS NULL OR NOT "is_completed") AND ("final_recommendations" IS NULL OR "is_completed")`,
)
@Index('IDX_chatbot_sessions_user_created', ['user_id', 'created_at'])
export class ChatSession {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  user_id: string;

  /** Answers keyed by parameter id. */
  @Column({ type: 'jsonb', default: () => `'{}'` })
  session_data: Answers;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  answered_parameters: string[];

  /** The answers as entered (value, unit, how given, label), in the order given. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  answer_details: AnswerDetailJson[];

  @Column({ type: 'jsonb', default: () => `'[]'` })
  matched_rules: MatchedRule[];

  @Column({ type: 'jsonb', default: () => `'[]'` })
  conversation_history: ChatMessage[];

  @Column({ type: 'integer', default: 1 })
  current_step: number;

  @Column({ type: 'boolean', default: false })
  is_completed: boolean;

  /** The chosen rule's actions; [] when nothing matched; null until completed. */
  @Column({ type: 'jsonb', nullable: true })
  final_recommendations: ActionJson[] | null;

  @Column({ type: 'jsonb', nullable: true })
  pending: ChatPending | null;

  @Column({ type: 'jsonb' })
  rule_set_versions: VersionRef[];

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated_at: Date;

  @Column({ type: 'timestamptz', nullable: true })
  completed_at: Date | null;

  @ManyToOne(() => User, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_chatbot_sessions_user' })
  user?: User;
}
