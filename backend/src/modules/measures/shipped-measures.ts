import { CMS122 } from './cms122';
import { CMS165 } from './cms165';
import { CMS951 } from './cms951';
import type { ShippedMeasure } from './measure-content';

/** The measures the product ships, in their own rule model. */
export const SHIPPED_MEASURES: readonly ShippedMeasure[] = [CMS122, CMS951, CMS165];
