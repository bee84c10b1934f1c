import { UserApproval } from '../modules/approvals/user-approval.entity';
import { CDS_HOOKS_ENTITIES } from '../modules/cds-hooks/entities';
import { ASSESSMENT_ENTITIES } from '../modules/assessments/assessments.entities';
import { PARAMETER_ENTITIES } from '../modules/parameters/parameters.entities';
import { RULE_ENTITIES } from '../modules/rules/rules.entities';
import { MeasureVersion } from '../modules/measure-versions/measure-version.entity';
import { ImpactPreview } from '../modules/impact-preview/impact-preview.entity';
import { AuthSession } from '../modules/auth/auth-session.entity';
import { RefreshToken } from '../modules/auth/refresh-token.entity';
import { Invitation } from '../modules/auth/invitation.entity';
import { Profile } from '../modules/users/profile.entity';
import { UserRole } from '../modules/users/user-role.entity';
import { User } from '../modules/users/user.entity';

/** Every entity, registered in one place for Nest and for the migration CLI. */
export const ENTITIES = [
  User,
  UserRole,
  Profile,
  UserApproval,
  AuthSession,
  RefreshToken,
  Invitation,
  // feature entities: parameters, rules, assessments (spread each module's list here)
  ...PARAMETER_ENTITIES,
  ...RULE_ENTITIES,
  ...ASSESSMENT_ENTITIES,
  ...CDS_HOOKS_ENTITIES,
  ImpactPreview,
  MeasureVersion,
];
