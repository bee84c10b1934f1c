// What other modules may use from the users module. Entities first: modules that import this
// file while it is still loading (a require cycle) find them already defined.
export { Profile } from './profile.entity';
export { UserRole } from './user-role.entity';
export { User } from './user.entity';
export { AccessRequests, type PendingAccessRequest } from './access-requests';
export { applyRole, userEmailOrder, userLabels, userMatches, UsersRepository, type UserLabel } from './users.repository';
export { assertMayChangeRole, UsersService } from './users.service';
export { UsersModule } from './users.module';
