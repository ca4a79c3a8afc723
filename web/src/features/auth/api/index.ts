export { fetchMe, meQueryKey, meQueryOptions, useMe } from './me';
export { login, useLogin, type LoginInput } from './login';
export { signup, useSignup, type SignupInput } from './signup';
export { logout, useLogout } from './logout';
