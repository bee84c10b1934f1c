import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { User } from './user.entity';

@Entity('profiles')
export class Profile {
  /** The user's id: one profile per user. */
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  first_name: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  last_name: string | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated_at: Date;

  @OneToOne('User', (u: User) => u.profile, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id', foreignKeyConstraintName: 'FK_profiles_user' })
  user?: User;
}
