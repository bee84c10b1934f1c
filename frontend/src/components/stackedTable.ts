import type { SxProps, Theme } from '@mui/material/styles';

/** Below MUI's `sm` breakpoint (600 px): a phone held upright. */
export const PHONE_MEDIA = '@media (max-width: 599.95px)';

/**
 * A table that becomes a stacked list on phones: each row a block, each cell a line with its
 * column's name above the value. A 5-column table squeezed into a 356 px card either scrolls
 * sideways with no cue (the last column, often the action, off-screen) or breaks headers and
 * e-mails letter by letter; stacked, every row's content and controls are on screen.
 *
 * `labels` are the column headers in order (the header row itself is hidden on phones but kept
 * for assistive technology). Works for MUI's Table and react-admin's DataTable alike, since it
 * styles the elements rather than the components. An empty label shows no caption (e.g. actions).
 */
export function stackedOnPhone(labels: readonly string[]): SxProps<Theme> {
  const captions: Record<string, object> = {};
  labels.forEach((label, i) => {
    captions[`& tbody td:nth-of-type(${i + 1})::before`] = label ? { content: JSON.stringify(label) } : { display: 'none' };
  });
  return {
    [PHONE_MEDIA]: {
      minWidth: 0,
      display: 'block',
      '& thead': {
        // Visually hidden, still read by screen readers.
        position: 'absolute',
        width: '1px',
        height: '1px',
        overflow: 'hidden',
        clip: 'rect(0 0 0 0)',
        whiteSpace: 'nowrap',
      },
      '& tbody': { display: 'block' },
      '& tbody tr': {
        display: 'block',
        height: 'auto',
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
      },
      '& tbody tr:last-of-type': { borderBottom: 0 },
      '& tbody td': {
        display: 'block',
        border: 0,
        px: 2,
        py: 0.75,
        textAlign: 'left',
        whiteSpace: 'normal',
        // Words wrap between words; only a single token longer than the line (an e-mail) may break.
        overflowWrap: 'anywhere',
        wordBreak: 'normal',
      },
      '& tbody td::before': {
        display: 'block',
        fontSize: '0.75rem',
        fontWeight: 600,
        letterSpacing: '0.02em',
        textTransform: 'uppercase',
        color: 'text.secondary',
        mb: 0.25,
      },
      // A row that is only a message ("No users match your search") has no column caption.
      '& tbody td[colspan]::before': { display: 'none' },
      ...captions,
    },
  };
}
