import { useState, type FormEvent, type ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { errorMessage } from '../api';
import { updateProfile } from '../api/endpoints';
import type { ProfileJson } from '@cds/contracts';
import { ERRORS, TOASTS } from '../messages';
import { toast } from '../toast/toast';

export interface ProfileValues {
  first_name: string;
  last_name: string;
}

type Errors = Partial<Record<keyof ProfileValues, string>>;

export function validateProfile(v: ProfileValues): Errors {
  const errors: Errors = {};
  if (v.first_name.trim().length < 1) errors.first_name = ERRORS.firstNameRequired;
  if (v.last_name.trim().length < 1) errors.last_name = ERRORS.lastNameRequired;
  return errors;
}

/**
 * Profile editing state shared by the dashboard dialog and the PCP settings page. On
 * failure the typed values stay exactly as they are.
 */
export function useProfileForm(profile: ProfileJson | null, signedIn: boolean, onSaved: () => void | Promise<void>) {
  const [values, setValues] = useState<ProfileValues>({
    first_name: profile?.first_name ?? '',
    last_name: profile?.last_name ?? '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  const reset = (p: ProfileJson | null) => {
    setValues({ first_name: p?.first_name ?? '', last_name: p?.last_name ?? '' });
    setErrors({});
  };

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const found = validateProfile(values);
    setErrors(found);
    if (Object.keys(found).length) return false;
    if (!signedIn) {
      toast({ title: 'Error', description: ERRORS.notAuthenticated });
      return false;
    }
    setSaving(true);
    try {
      await updateProfile({ first_name: values.first_name.trim(), last_name: values.last_name.trim() });
      toast(TOASTS.profileSaved);
      await onSaved();
      return true;
    } catch (err) {
      toast({ title: 'Error', description: errorMessage(err, ERRORS.profileSave) });
      return false;
    } finally {
      setSaving(false);
    }
  };

  const set = (field: keyof ProfileValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((er) => ({ ...er, [field]: undefined }));
  };

  return { values, errors, saving, submit, set, reset };
}

export function ProfileFields({
  form,
  autoFocus,
  children,
}: {
  form: ReturnType<typeof useProfileForm>;
  autoFocus?: boolean;
  children?: ReactNode;
}) {
  const { values, errors, saving, set } = form;
  return (
    <Stack spacing={2}>
      <TextField
        label="First name"
        name="first_name"
        autoComplete="given-name"
        autoFocus={autoFocus}
        required
        value={values.first_name}
        onChange={(e) => set('first_name')(e.target.value)}
        error={!!errors.first_name}
        helperText={errors.first_name}
        disabled={saving}
      />
      <TextField
        label="Last name"
        name="last_name"
        autoComplete="family-name"
        required
        value={values.last_name}
        onChange={(e) => set('last_name')(e.target.value)}
        error={!!errors.last_name}
        helperText={errors.last_name}
        disabled={saving}
      />
      {children}
    </Stack>
  );
}
