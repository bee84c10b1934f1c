import { RuleSetTestCase } from './rule-set-test-case.entity';
import { RuleSetVersion } from './rule-set-version.entity';
import { RuleSet } from './rule-set.entity';
import { RuleTestCase } from './rule-test-case.entity';
import { Rule } from './rule.entity';

export const RULE_ENTITIES = [RuleSet, Rule, RuleSetVersion, RuleTestCase, RuleSetTestCase];
