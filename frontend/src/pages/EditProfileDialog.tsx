import { useEffect } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { ProfileJson } from '@cds/contracts';
import { ProfileFields, useProfileForm } from '../components/ProfileForm';
import { MuiTheme } from '../MuiProviders';

export default function EditProfileDialog({
  open,
  profile,
  signedIn,
  onClose,
  onSaved,
}: {
  open: boolean;
  profile: ProfileJson | null;
  signedIn: boolean;
  onClose: () => void;
  onSaved: () => void | Promise<void>;
}) {
  const form = useProfileForm(profile, signedIn, onSaved);
  const { reset, saving } = form;

  // Start from the stored profile each time the dialog opens (not when it changes while open: that would drop what was typed).
  useEffect(() => {
    if (open) reset(profile);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const close = (_: unknown, reason?: 'backdropClick' | 'escapeKeyDown') => {
    // A stray click outside must not throw away what was typed; Escape and Cancel still close.
    if (saving || reason === 'backdropClick') return;
    onClose();
  };

  const save = async (e: React.FormEvent) => {
    if (await form.submit(e)) onClose();
  };

  return (
    <MuiTheme>
      <Dialog
        open={open}
        onClose={close}
        aria-labelledby="edit-profile-title"
        aria-describedby="edit-profile-description"
        slotProps={{ paper: { sx: { maxWidth: '425px', width: '100%' } } }}
      >
        <DialogTitle id="edit-profile-title">Edit Profile</DialogTitle>
        <form noValidate onSubmit={save}>
          <DialogContent>
            <DialogContentText id="edit-profile-description" sx={{ mb: 2 }}>
              Update your name as it appears to colleagues.
            </DialogContentText>
            <ProfileFields form={form} autoFocus />
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={() => onClose()} disabled={saving}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant="contained"
              disabled={saving}
              startIcon={saving ? <CircularProgress size={16} color="inherit" aria-label="Saving" /> : undefined}
            >
              Save
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </MuiTheme>
  );
}
