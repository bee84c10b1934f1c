import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A card as issued: its uuid maps feedback back to the rule and version it stands for (none for the undetermined card). */
@Entity('cds_cards')
export class CdsCardIssued {
  @PrimaryColumn({ type: 'uuid' })
  uuid!: string;

  @Column({ type: 'varchar', length: 500 })
  issuer!: string;

  @Column({ name: 'service_id', type: 'varchar', length: 100 })
  service_id!: string;

  @Index('IDX_cds_cards_rule_set_id')
  @Column({ name: 'rule_set_id', type: 'uuid', nullable: true })
  rule_set_id!: string | null;

  @Column({ name: 'rule_id', type: 'uuid', nullable: true })
  rule_id!: string | null;

  @Column({ name: 'rule_version', type: 'integer', nullable: true })
  rule_version!: number | null;

  @Column({ name: 'rule_set_version', type: 'integer', nullable: true })
  rule_set_version!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at!: Date;
}
