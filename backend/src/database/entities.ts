import { UserApproval } from '../modules/approvals/user-approval.entity';
import { AuthSession, RefreshToken } from '../modules/auth/auth-session.entity';
import { Profile } from '../modules/users/profile.entity';
import { UserRole } from '../modules/users/user-role.entity';
import { User } from '../modules/users/user.entity';

/** Every entity, registered in one place for Nest and for the migration CLI. */
export const ENTITIES = [User, UserRole, Profile, UserApproval, AuthSession, RefreshToken];
