import { DomainError } from '../../common/errors';

/**
 * A request body its route's pipe has checked, whose refusal waits until the caller is known: a CDS Hooks service
 * answers an unverified client 401 and an unknown service 404 before anything about the body (an unregistered
 * caller learns nothing), and a verified token is spent even when its body is refused, so a replay is refused as
 * such whatever its body. An interface, not a class: the global validation pipe leaves the raw body to this one.
 */
export interface CheckedBody<T> {
  /** The checked body, or its refusal (a 400 naming the field). */
  get(): T;
}

/** Runs `check` now; its DomainError is kept for `get()`, anything else is a bug and thrown at once. */
export function checkedBody<T>(check: () => T): CheckedBody<T> {
  try {
    const value = check();
    return { get: () => value };
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return {
      get: () => {
        throw e;
      },
    };
  }
}
