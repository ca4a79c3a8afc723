export { LoginPage } from './LoginPage';
export { SignupPage } from './SignupPage';
export { RoleSelectPage } from './RoleSelectPage';
export { useMe, useLogout, meQueryKey } from './api';
export { ForgotPasswordPage } from './ForgotPasswordPage';
export { ResetPasswordPage } from './ResetPasswordPage';
export { VerifyEmailPage } from './VerifyEmailPage';
