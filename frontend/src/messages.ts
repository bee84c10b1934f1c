import type { ToastInput } from './toast/toast';

/**
 * User-facing texts from the product spec (section 8), word for word, in one place.
 *
 * Variants: the spec says "destructive unless noted". Positive confirmations (signed in,
 * account created, request submitted, profile saved) are shown as 'success' on purpose: a
 * red banner that says "Welcome back!" teaches clinicians to ignore red. Change the variant
 * here if the literal reading is wanted.
 */
export const TOASTS = {
  signInSuccess: { title: 'Welcome back!', description: "You've been successfully signed in.", variant: 'success' },
  signUpSuccess: {
    title: 'Account created successfully!',
    description: "You've been automatically signed in.",
    variant: 'success',
  },
  pcpRequestSubmitted: {
    title: 'Request submitted',
    description: 'Your PCP access request has been submitted for review.',
    variant: 'success',
  },
  pcpRequestNoUser: { title: 'You must be logged in to request PCP access', variant: 'destructive' },
  profileSaved: {
    title: 'Profile updated',
    description: 'Your profile has been successfully updated.',
    variant: 'success',
  },
  passwordChanged: { title: 'Password updated', description: 'Your password has been changed.', variant: 'success' },
  chatNoQuestions: {
    title: 'No Questions Available',
    description: 'No diagnostic questions are configured. Please contact an administrator.',
    variant: 'destructive',
  },
  chatStartFailed: { title: 'Error', description: 'Failed to start new session. Please try again.', variant: 'destructive' },
  chatAnswerFailed: {
    title: 'Error',
    description: 'Failed to process your answer. Please try again.',
    variant: 'destructive',
  },
} satisfies Record<string, ToastInput>;

export const ERRORS = {
  signIn: 'An error occurred during sign in',
  signUp: 'An error occurred during sign up',
  google: 'An error occurred during Google sign in',
  profileSave: 'Failed to update profile',
  notAuthenticated: 'User not authenticated',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  // ours: the auth service's own words mention a phone number, which these forms do not have.
  missingCredentials: 'Enter your email and password.',
} as const;

export { PRODUCT_NAME, TAGLINE } from './brand';

/**
 * The spec's body told the physician to "consult with your healthcare provider" (advice for a
 * patient, shown to the provider). Issue 20: the card says that no rule fired and lists what the
 * answers ruled out.
 */
export const NO_RECOMMENDATION = {
  title: 'No Recommendation Available',
  body: 'No rule fired for these answers.',
  ruledOut: 'No rule fired. Checked and ruled out:',
} as const;
