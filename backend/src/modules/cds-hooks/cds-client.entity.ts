import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** An EHR (CDS client) allowed to call our CDS Hooks services: it signs each request with a key we can find. */
@Entity('cds_clients')
@Check('CHK_cds_clients_key', `("jwks_url" IS NOT NULL) <> ("jwk" IS NOT NULL)`)
@Check('CHK_cds_clients_issuer', `btrim("issuer") <> ''`)
export class CdsClient {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('UQ_cds_clients_issuer', { unique: true })
  @Column({ type: 'varchar', length: 500 })
  issuer!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ name: 'jwks_url', type: 'varchar', length: 2000, nullable: true })
  jwks_url!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  jwk!: Record<string, unknown> | null;

  @Column({ name: 'allowed_services', type: 'text', array: true })
  allowed_services!: string[];

  /** FHIR base URLs this client may name as fhirServer; any other is refused before a fetch. */
  @Column({ name: 'allowed_fhir_servers', type: 'text', array: true, default: () => "'{}'" })
  allowed_fhir_servers!: string[];

  @Column({ name: 'is_active', type: 'boolean', default: true })
  is_active!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at!: Date;
}
