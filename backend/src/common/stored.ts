/**
 * A row as the database returns it for a response shape of @cds/contracts: the same fields, with the
 * named timestamps as `Date` (the service turns them into ISO strings). Deriving rows from the
 * contract keeps the two from drifting apart.
 */
export type Stored<T, K extends keyof T> = Omit<T, K> & { [P in K]: null extends T[P] ? Date | null : Date };
