/** The parameter dialogs on a phone: nearly the whole width, so fields and menus keep their words. */
export const DIALOG_PAPER_SX = {
  maxHeight: '90vh',
  m: { xs: 1, sm: 4 },
  width: { xs: 'calc(100% - 16px)', sm: 'calc(100% - 64px)' },
} as const;

export const DIALOG_CONTENT_SX = { px: { xs: 2, sm: 3 } } as const;
