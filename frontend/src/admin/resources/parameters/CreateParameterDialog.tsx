import { useEffect, useState } from 'react';
import { unitDisplay } from '@cds/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useCreate } from 'react-admin';
import { errorMessage } from '../../../api';
import { ADMIN_TOASTS, PARAMETERS } from '../../messages';
import { adminApi } from '../../providers/dataProvider';
import { useToast } from '../../providers/useToast';
import type { ParameterJson } from '@cds/contracts';
import { CriterionEditor } from './CriterionEditor';
import { DIALOG_CONTENT_SX, DIALOG_PAPER_SX } from './dialogSx';
import { criterionOf, draftProblems, EMPTY_CRITERION, serverCriterionErrors, type CriterionErrors } from './criterionDraft';
import { categoryLabel, dataTypeLabel } from './labels';
import { EMPTY_PARAMETER, LIMITS, ParameterInputs, parameterProblems, type ParameterValues } from './ParameterInputs';

type TabKey = 'template' | 'custom';

function TemplateChoice({ t, selected, onSelect }: { t: ParameterJson; selected: boolean; onSelect: () => void }) {
  return (
    <ButtonBase
      onClick={onSelect}
      aria-pressed={selected}
      sx={{
        display: 'block',
        textAlign: 'left',
        width: '100%',
        p: 1.5,
        borderRadius: 1.5,
        border: 2,
        borderColor: selected ? 'primary.main' : 'divider',
        bgcolor: selected ? 'primary.light' : 'background.paper',
      }}
    >
      <Typography sx={{ fontWeight: 600 }}>{t.display_name}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t.description || `${t.category} parameter`}
      </Typography>
      <Box sx={{ display: 'flex', gap: 0.5, mt: 0.5, flexWrap: 'wrap' }}>
        <Chip size="small" variant="outlined" label={dataTypeLabel(t.data_type)} />
        <Chip size="small" variant="outlined" label={categoryLabel(t.category)} />
        {t.units && <Chip size="small" variant="outlined" label={unitDisplay(t.units)} />}
      </Box>
    </ButtonBase>
  );
}

function trimmedBody(v: ParameterValues) {
  return {
    name: v.name.trim(),
    display_name: v.display_name.trim(),
    data_type: v.data_type,
    category: v.category,
    is_required: v.is_required,
    ...(v.description.trim() ? { description: v.description.trim() } : {}),
    ...(v.units.trim() ? { units: v.units.trim() } : {}),
  };
}

export function CreateParameterDialog({
  open,
  onClose,
  templates,
  initialTemplateId,
}: {
  open: boolean;
  onClose: () => void;
  templates: ParameterJson[];
  initialTemplateId?: string | null;
}) {
  const [tab, setTab] = useState<TabKey>('template');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [override, setOverride] = useState({ name: '', display_name: '' });
  const [custom, setCustom] = useState<ParameterValues>(EMPTY_PARAMETER);
  const [criterion, setCriterion] = useState(EMPTY_CRITERION);
  const [criterionErrors, setCriterionErrors] = useState<CriterionErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [savingTemplate, setSavingTemplate] = useState(false);
  const [create, { isPending: savingCustom }] = useCreate<ParameterJson>();
  const toast = useToast();
  const queryClient = useQueryClient();
  const saving = savingTemplate || savingCustom;

  const select = (t: ParameterJson | undefined) => {
    setSelectedId(t?.id ?? null);
    setOverride({ name: t?.name ?? '', display_name: t?.display_name ?? '' });
    setError(null);
  };

  useEffect(() => {
    if (!open) return;
    setTab(initialTemplateId || templates.length ? 'template' : 'custom');
    select(templates.find((t) => t.id === initialTemplateId));
    // A fresh dialog each time it opens (the templates are loaded before the page offers it);
    // what was typed survives a failed save, since the dialog stays open, not a cancel.
    setCustom(EMPTY_PARAMETER);
    setCriterion(EMPTY_CRITERION);
    setCriterionErrors({});
    // Not on `templates`: a refetch must not reset a choice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, initialTemplateId]);

  const close = () => {
    if (!saving) onClose();
  };

  const done = () => {
    void queryClient.invalidateQueries({ queryKey: ['parameters'] });
    void queryClient.invalidateQueries({ queryKey: ['parameter-changes'] });
    onClose();
  };

  const createFromTemplate = async () => {
    const t = templates.find((x) => x.id === selectedId);
    if (!t) return;
    const overrides: Record<string, string> = {};
    if (override.name.trim() && override.name.trim() !== t.name) overrides.name = override.name.trim();
    if (override.display_name.trim() && override.display_name.trim() !== t.display_name)
      overrides.display_name = override.display_name.trim();
    setSavingTemplate(true);
    setError(null);
    try {
      await adminApi.parameterFromTemplate(t.id, Object.keys(overrides).length ? overrides : undefined);
      toast(ADMIN_TOASTS.parameterFromTemplate);
      done();
    } catch (e) {
      console.error('Create from template failed', e);
      setError(errorMessage(e, ''));
      toast(ADMIN_TOASTS.parameterFromTemplateFailed);
    } finally {
      setSavingTemplate(false);
    }
  };

  const criterionBlocked = Object.keys(draftProblems(criterion, custom.data_type)).length > 0;
  const customReady = Object.keys(parameterProblems(custom)).length === 0 && !criterionBlocked;
  const createCustom = () => {
    if (!customReady) return;
    setError(null);
    const read = criterionOf(criterion);
    create(
      'parameters',
      { data: { ...trimmedBody(custom), ...(read ? { validation_rules: { criterion: read } } : {}) } },
      {
        onSuccess: () => {
          toast(ADMIN_TOASTS.parameterCreated);
          done();
        },
        onError: (e) => {
          console.error('Create parameter failed', e);
          setError(errorMessage(e, ''));
          setCriterionErrors(serverCriterionErrors(e));
          toast(ADMIN_TOASTS.parameterCreateFailed);
        },
      },
    );
  };

  const diabetes = templates.filter((t) => t.is_diabetes_specific);
  const general = templates.filter((t) => !t.is_diabetes_specific);
  const overrideBlank = !override.name.trim() || !override.display_name.trim();

  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby="create-parameter-title"
      maxWidth="md"
      fullWidth
      slotProps={{ paper: { sx: DIALOG_PAPER_SX } }}
    >
      <DialogTitle id="create-parameter-title">Create Parameter</DialogTitle>
      <Box sx={{ px: { xs: 1, sm: 3 } }}>
        <Tabs
          value={tab}
          onChange={(_, v: TabKey) => {
            setTab(v);
            setError(null);
          }}
          aria-label="How to create the parameter"
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
        >
          <Tab value="template" label="From Template" id="create-tab-template" aria-controls="create-panel-template" disabled={saving} />
          <Tab value="custom" label="Custom Parameter" id="create-tab-custom" aria-controls="create-panel-custom" disabled={saving} />
        </Tabs>
      </Box>
      <DialogContent dividers sx={DIALOG_CONTENT_SX}>
        {error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error || 'The server refused the parameter.'}
          </Alert>
        )}
        {tab === 'template' ? (
          <Box role="tabpanel" id="create-panel-template" aria-labelledby="create-tab-template">
            {!templates.length && (
              <Typography color="text.secondary">
                No templates yet. Seed the diabetes templates on the Templates tab, or create a custom parameter.
              </Typography>
            )}
            {[[PARAMETERS.diabetesTemplates, diabetes] as const, [PARAMETERS.generalTemplates, general] as const].map(([title, list]) =>
              list.length ? (
                <Box key={title} component="section" aria-label={title} sx={{ mb: 2 }}>
                  <Typography component="h3" variant="h5" sx={{ mb: 1 }}>
                    {title}
                  </Typography>
                  <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
                    {list.map((t) => (
                      <TemplateChoice key={t.id} t={t} selected={t.id === selectedId} onSelect={() => select(t)} />
                    ))}
                  </Box>
                </Box>
              ) : null,
            )}
            {selectedId && (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 1 }}>
                <TextField
                  label="Parameter Name"
                  value={override.name}
                  onChange={(e) => setOverride({ ...override, name: e.target.value })}
                  slotProps={{ htmlInput: { maxLength: LIMITS.name } }}
                  error={!override.name.trim()}
                  helperText={!override.name.trim() ? 'Parameter name is required.' : 'Change it when a parameter with this name exists.'}
                  disabled={saving}
                />
                <TextField
                  label="Display Name"
                  value={override.display_name}
                  onChange={(e) => setOverride({ ...override, display_name: e.target.value })}
                  slotProps={{ htmlInput: { maxLength: LIMITS.display_name } }}
                  error={!override.display_name.trim()}
                  helperText={!override.display_name.trim() ? 'Display name is required.' : ' '}
                  disabled={saving}
                />
              </Stack>
            )}
          </Box>
        ) : (
          <Box role="tabpanel" id="create-panel-custom" aria-labelledby="create-tab-custom" sx={{ pt: 1 }}>
            <Stack spacing={2}>
              <ParameterInputs value={custom} onChange={setCustom} disabled={saving} />
              <CriterionEditor
                value={criterion}
                onChange={(next) => {
                  setCriterion(next);
                  setCriterionErrors({});
                }}
                parameterUnit={custom.units}
                dataType={custom.data_type}
                serverErrors={criterionErrors}
                disabled={saving}
              />
            </Stack>
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        {tab === 'custom' && !customReady && (
          <Typography id="create-blocked" variant="body2" color="text.secondary" sx={{ mr: 'auto', pl: 1 }}>
            {criterionBlocked ? 'Fix the reading from the record to create.' : 'Fill in the required fields to create.'}
          </Typography>
        )}
        <Button onClick={close} disabled={saving} color="secondary">
          Cancel
        </Button>
        {tab === 'template' ? (
          <Button
            variant="contained"
            onClick={createFromTemplate}
            disabled={!selectedId || overrideBlank || saving}
            startIcon={savingTemplate ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
          >
            {PARAMETERS.createFromTemplate}
          </Button>
        ) : (
          <Button
            variant="contained"
            onClick={createCustom}
            disabled={!customReady || saving}
            aria-describedby={!customReady ? 'create-blocked' : undefined}
            startIcon={savingCustom ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
          >
            {PARAMETERS.create}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
