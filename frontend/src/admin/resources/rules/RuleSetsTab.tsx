import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { errorMessage } from '../../../api';
import { SearchBox } from '../../components/SearchBox';
import { RULES } from '../../messages';
import type { ParameterJson, RuleSetJson } from '@cds/contracts';

import { RuleSetItem } from './RuleSetItem';
import { RulesPanel } from './RulesPanel';

export function RuleSetsTab({
  ruleSets,
  loading,
  error,
  search,
  onSearch,
  selected,
  onSelect,
  onAddRule,
  onCreateRuleSet,
  parameters,
}: {
  ruleSets: RuleSetJson[];
  loading: boolean;
  error: unknown;
  search: string;
  onSearch: (q: string) => void;
  selected: RuleSetJson | null;
  onSelect: (set: RuleSetJson) => void;
  onAddRule: (set: RuleSetJson) => void;
  onCreateRuleSet: () => void;
  parameters: ParameterJson[];
}) {
  return (
    <Stack spacing={2}>
      <SearchBox placeholder={RULES.search} value={search} onSearch={onSearch} />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 2fr) minmax(0, 3fr)' }, alignItems: 'start' }}>
        <Card component="section" aria-labelledby="rule-sets-title">
          <CardHeader
            title={`Rule Sets (${loading ? '…' : ruleSets.length})`}
            slotProps={{ title: { id: 'rule-sets-title', component: 'h2', variant: 'h4' } }}
          />
          <CardContent sx={{ pt: 0 }}>
            {loading && (
              <Stack spacing={1} role="status" aria-label="Loading rule sets">
                <Skeleton height={96} />
                <Skeleton height={96} />
              </Stack>
            )}
            {error ? <Typography color="error">{errorMessage(error, 'The rule sets could not be loaded.')}</Typography> : null}
            {!loading && !error && !ruleSets.length && (
              <Box sx={{ textAlign: 'center', py: 3 }}>
                <Typography color="text.secondary" sx={{ mb: 1.5 }}>
                  {RULES.noRuleSets}
                </Typography>
                <Button variant="contained" startIcon={<AddIcon />} onClick={onCreateRuleSet}>
                  {RULES.createRuleSet}
                </Button>
              </Box>
            )}
            {!!ruleSets.length && (
              <Stack component="ul" spacing={1} sx={{ m: 0, p: 0 }} aria-label="Rule sets">
                {ruleSets.map((s) => (
                  <RuleSetItem
                    key={s.id}
                    set={s}
                    selected={selected?.id === s.id}
                    onSelect={() => onSelect(s)}
                    onAddRule={() => onAddRule(s)}
                  />
                ))}
              </Stack>
            )}
          </CardContent>
        </Card>
        <RulesPanel set={selected} parameters={parameters} onAddRule={onAddRule} />
      </Box>
    </Stack>
  );
}
