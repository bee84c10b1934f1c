import { Foundation1795420800000 } from './1795420800000-Foundation';
import { Parameters1795507200000 } from './1795507200000-Parameters';
import { Rules1795507260000 } from './1795507260000-Rules';
import { Invitations1795650000000 } from './1795650000000-Invitations';
import { Assessments1795650060000 } from './1795650060000-Assessments';

/** Ordered list of migrations; the CLI and the app run exactly these. */
export const MIGRATIONS = [Foundation1795420800000, Parameters1795507200000, Rules1795507260000, Invitations1795650000000, Assessments1795650060000];
