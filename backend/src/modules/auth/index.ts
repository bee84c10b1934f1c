// What other modules may use from the auth module: whether a sign-in session is still open, with its
// user's current role (the queue dashboard checks its cookie's session the way the bearer check does).
export { openSessionIdentity } from './sessions.repository';
export type { SessionIdentity } from './session-cache';
// The CLI's role command announces its write as the API's own writes are announced.
export { announceSessionChange } from './session-cache';
