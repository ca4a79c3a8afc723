/** The password rules of spec §5 and §9, shared by sign-up and the profile's password change. */

/** Spec §9: minimum password length. */
export const MIN_PASSWORD_LENGTH = 6;

export type PasswordProblem = 'errors.passwordsMismatch' | 'errors.passwordTooShort';

/** Spec §5: the checks run in this order and the first failure is shown. */
export function checkNewPassword(password: string, confirmPassword: string): PasswordProblem | null {
  if (password !== confirmPassword) return 'errors.passwordsMismatch';
  if (password.length < MIN_PASSWORD_LENGTH) return 'errors.passwordTooShort';
  return null;
}
