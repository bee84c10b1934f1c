import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A client JWT id already used: refused until its token has expired anyway. */
@Entity('cds_seen_jtis')
export class CdsSeenJti {
  @PrimaryColumn({ type: 'varchar', length: 500 })
  issuer!: string;

  @PrimaryColumn({ type: 'varchar', length: 500 })
  jti!: string;

  @Index('IDX_cds_seen_jtis_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expires_at!: Date;
}
