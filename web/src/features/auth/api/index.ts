export { fetchMe, meQueryKey, meQueryOptions, useMe } from './me';
export { isChallenge, login, loginWithCode, useLogin, useLoginWithCode, type LoginInput } from './login';
export { signup, useSignup, type SignupInput } from './signup';
export { logout, useLogout } from './logout';
export {
  requestPasswordReset,
  resetPassword,
  useRequestPasswordReset,
  useResetPassword,
  useVerifyEmail,
  verifyEmail,
} from './account';
