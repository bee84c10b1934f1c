import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One counter that every write to the parameters, the rule sets and their versions moves on at its commit
 * (database triggers: migration 1796610000000). What an API process keeps of them is kept with the
 * generation it was read at, and a write decided with it applies only while that generation is current.
 */
@Entity('knowledge_generation')
@Check('CHK_knowledge_generation_one_row', `"id" = 1`)
export class KnowledgeGeneration {
  @PrimaryColumn({ type: 'smallint', default: 1, primaryKeyConstraintName: 'PK_knowledge_generation' })
  id: number;

  @Column({ type: 'bigint', default: 0 })
  generation: string;
}
