import { Foundation1795420800000 } from './1795420800000-Foundation';

/** Ordered list of migrations; the CLI and the app run exactly these. */
export const MIGRATIONS = [Foundation1795420800000];
