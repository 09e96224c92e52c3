import { api } from '../../app/api';
import type { AppConfig, Student, User } from '../../app/types';

export interface LoginRequest {
  email: string;
  password: string;
  remember?: boolean;
}
export type LoginResponse = { user: User } | { two_factor: true };
export type TwoFactorRequest = { code: string } | { recovery_code: string };
export interface RegisterRequest {
  name: string;
  email: string;
  password: string;
  password_confirmation: string;
  terms: boolean;
}

/** Sign-in, sign-out and account-entry calls of both hosts (api.md "Authentication"). */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    appConfig: build.query<AppConfig, void>({ query: () => '/api/app-config' }),
    currentUser: build.query<{ user: User }, void>({ query: () => '/api/user', keepUnusedDataFor: 0 }),
    currentStudent: build.query<{ student: Student } | Student, void>({
      query: () => '/api/student',
      keepUnusedDataFor: 0,
    }),
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: '/api/login', method: 'POST', body }),
    }),
    portalLogin: build.mutation<{ student: Student }, Omit<LoginRequest, 'remember'>>({
      query: (body) => ({ url: '/api/login', method: 'POST', body }),
    }),
    twoFactorChallenge: build.mutation<{ user: User }, TwoFactorRequest>({
      query: (body) => ({ url: '/api/two-factor-challenge', method: 'POST', body }),
    }),
    logout: build.mutation<void, void>({ query: () => ({ url: '/api/logout', method: 'POST' }) }),
    forgotPassword: build.mutation<{ message: string }, { email: string }>({
      query: (body) => ({ url: '/api/forgot-password', method: 'POST', body }),
    }),
    register: build.mutation<{ message: string }, RegisterRequest>({
      query: (body) => ({ url: '/api/register', method: 'POST', body }),
    }),
  }),
});

export const {
  useLoginMutation,
  usePortalLoginMutation,
  useTwoFactorChallengeMutation,
  useLogoutMutation,
  useForgotPasswordMutation,
  useRegisterMutation,
} = authApi;

/** `GET /api/student` answers the record, possibly wrapped as `{student}`. */
export function unwrapStudent(body: { student: Student } | Student): Student {
  return 'student' in body && body.student && typeof body.student === 'object'
    ? (body.student as Student)
    : (body as Student);
}
