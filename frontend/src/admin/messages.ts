import type { ToastInput } from '../toast/toast';

/**
 * The admin console's texts from the product spec (sections 2, 4 and 8), word for word, and
 * the few the spec leaves open (marked "ours"). Screens import them from here.
 */

export const OVERVIEW = {
  cards: {
    totalUsers: { title: 'Total Users', hint: 'Registered users' },
    activePcps: { title: 'Active PCPs', hint: 'Verified healthcare providers' },
    pendingApprovals: { title: 'Pending Approvals', hint: 'Awaiting review' },
    health: { title: 'System Health', healthy: 'Healthy', healthyHint: 'All systems operational' },
  },
  loading: 'Loading...',
  activityTitle: 'Recent User Activity',
  // ours: the spec names "a no-activity message" without its words.
  noActivity: 'No recent activity',
  quickActions: 'Quick Actions',
} as const;

export const USERS = {
  title: 'User Management',
  subtitle: 'Manage user accounts, roles, and permissions.',
  search: 'Search users by email or name...',
  invite: 'Invite User',
  columns: ['User', 'Role', 'Status', 'Joined', 'Actions'],
} as const;

export const APPROVALS = {
  title: 'Pending Approvals',
  pcpPanel: 'PCP Access Requests',
  adminPanel: 'Admin Access Requests',
  pcpEmpty: 'No pending PCP access requests at this time.',
  adminEmpty: 'No pending admin access requests at this time.',
} as const;

export const PARAMETERS = {
  title: 'Parameter Management',
  create: 'Create Parameter',
  tabs: { parameters: 'Parameters', templates: 'Templates', history: 'Change History' },
  empty: 'No parameters found',
  emptyNext: 'Start from a template: the Templates tab has the diabetes parameters with their units and reference ranges.',
  emptySearchNext: 'No parameter matches this search or category.',
  browseTemplates: 'Browse Templates',
  clearSearch: 'Clear search',
  noChanges: 'No changes found',
  createFromTemplate: 'Create from Template',
  diabetesTemplates: 'Diabetes-Specific Templates',
  generalTemplates: 'General Templates',
} as const;

/** Category filter labels (spec: All Categories, Demographics, Vital Signs, ...). */
export const CATEGORY_LABELS: Record<string, string> = {
  demographics: 'Demographics',
  vitals: 'Vital Signs',
  labs: 'Laboratory',
  history: 'Medical History',
  symptoms: 'Symptoms',
  other: 'Other',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const RULES = {
  title: 'Rule Designer',
  importTemplate: 'Import Template',
  createRule: 'Create Rule',
  tabs: { ruleSets: 'Rule Sets', templates: 'Templates', analytics: 'Analytics' },
  search: 'Search rule sets...',
  noRuleSets: 'No rule sets found. Create your first rule set to get started.',
  createRuleSet: 'Create Rule Set',
  addRule: 'Add Rule',
  selectRuleSet: 'Select a rule set from the left to view its rules',
  noRules: 'No rules found in this rule set.',
  noTemplates: 'No rule templates available',
  noTemplatesNext:
    'A rule set becomes a template when you mark it: open it under Rule Sets and choose "Mark as template". Its rules can then start new rule sets.',
  goToRuleSets: 'Go to Rule Sets',
  useTemplate: 'Use Template',
  /** What a template installs: a content pack brings its parameters and vignettes too. */
  templateContents: (t: {
    rule_count: number;
    content_pack?: { rule_count: number; parameter_count: number; vignette_count: number } | null;
  }) =>
    t.content_pack
      ? `${plural(t.content_pack.rule_count, 'rule')}, ${plural(t.content_pack.parameter_count, 'parameter')}, ${plural(t.content_pack.vignette_count, 'vignette')}`
      : plural(t.rule_count, 'rule'),
  nothingToPublish: (version: number | null | undefined) =>
    `Nothing to publish: the rules are as published in version ${version ?? 1}. Edit a rule to publish again.`,
  deleteConfirm: (name: string) => `Are you sure you want to delete the rule "${name}"? This action cannot be undone.`,
} as const;

export const DESIGNER = {
  titles: { create: 'Create New Rule', edit: 'Edit Rule', view: 'View Rule' },
  subtitle: 'Design diagnostic rules with visual preview',
  back: 'Back to Rules',
  loading: 'Loading rule data...',
  priorityHint: 'Higher priority rules are evaluated first',
  conditionsMet: 'Conditions Met?',
  yes: 'Yes',
  noActions: 'No actions defined',
  noData: 'No rule data to preview',
} as const;

const success = (title: string, description?: string): ToastInput => ({ title, description, variant: 'success' });
const failure = (description: string): ToastInput => ({ title: 'Error', description, variant: 'destructive' });

export const ADMIN_TOASTS = {
  parameterCreated: success('Parameter created', 'Your custom parameter has been created successfully.'),
  parameterFromTemplate: success('Parameter created', 'Parameter created from template successfully.'),
  parameterCreateFailed: failure('Failed to create parameter. Please try again.'),
  parameterFromTemplateFailed: failure('Failed to create parameter from template. Please try again.'),
  templatesSeeded: (n: number) => success('Success', `Created ${n} diabetes parameter templates.`),
  seedingFailed: failure('Failed to create diabetes templates. Some may already exist.'),
  // ours: edit, clone and polish are real here; the spec does not word their toasts.
  parameterUpdated: success('Parameter updated', 'Your changes have been saved.'),
  parameterUpdateFailed: failure('Failed to update parameter. Please try again.'),
  parameterCloned: (name: string) => success('Parameter cloned', `Parameter "${name}" has been created.`),
  parameterCloneFailed: failure('Failed to clone parameter. Please try again.'),
  polishQueued: success('Polishing queued', 'The question will be re-worded shortly.'),

  ruleSetCreated: success('Success', 'Rule set created successfully.'),
  ruleSetCreateFailed: failure('Failed to create rule set. Please try again.'),
  ruleCreated: success('Success', 'Rule created successfully.'),
  ruleCreateFailed: failure('Failed to create rule. Please try again.'),
  ruleUpdated: success('Success', 'Rule updated successfully.'),
  ruleUpdateFailed: failure('Failed to update rule. Please try again.'),
  ruleDeleted: (name: string) => success('Rule Deleted', `Rule "${name}" has been successfully deleted.`),
  ruleDeleteFailed: failure('Failed to delete rule. Please try again.'),
  ruleNoName: { title: 'Validation Error', description: 'Please provide a rule name.', variant: 'destructive' } as ToastInput,
  ruleNoRuleSet: failure('Rule set ID is required.'),
  ruleSetActivated: (name: string, active: boolean) =>
    success('Success', `Rule set "${name}" has been ${active ? 'activated' : 'deactivated'}`),
  ruleSetActivationFailed: failure('Failed to update rule set activation. Please try again.'),
  // ours: the spec's "will be cloned" toast becomes the real outcome.
  ruleCloned: (name: string) => success('Rule Cloned', `Rule "${name}" has been cloned.`),
  ruleCloneFailed: failure('Failed to clone rule. Please try again.'),
  ruleSetFromTemplate: (name: string) => success('Success', `Rule set "${name}" was created from the template.`),
  ruleSetFromTemplateFailed: failure('Failed to create the rule set from the template. Please try again.'),
  published: (version: number) => success('Published', `Version ${version} is now used by assessments.`),
  // ours: quality measures' drafts and local versions (issue 21), worded as the rule-set publish is.
  measureDraftSaved: (identifier: string, label: string) =>
    success('Draft saved', `Draft version ${label} of ${identifier} is saved. The measure in use does not change until it is published.`),
  measureDraftDiscarded: (identifier: string) => success('Draft discarded', `${identifier} stays as published.`),
  measurePublished: (identifier: string, label: string) =>
    success('Published', `Version ${label} of ${identifier} is now used by the Panel, measure reports, measure runs and gap cards.`),
} as const;
