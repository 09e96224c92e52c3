import type { Locale } from '../../../shared/features';

/** A staff account as `GET /api/user` and `POST /api/login` return it. */
export interface User {
  id: number;
  name: string;
  email: string;
  is_admin: boolean;
  language: Locale;
  branch_id: number | null;
  role: { id: number; name: string; data_scope: 'all' | 'branch' } | null;
  permissions: string[];
  two_factor_enabled: boolean;
  /** the profile photo (`/api/files/:id`), null without one */
  profile_photo_url?: string | null;
}

/** The signed-in student on the portal host (`POST /api/login`, `GET /api/student`). */
export interface Student {
  id: number;
  student_no: string;
  surname_en: string | null;
  given_name_en: string | null;
  name_zh: string | null;
  language: Locale;
  portal_email: string;
  [field: string]: unknown;
}

export interface AppConfig {
  registration_enabled: boolean;
  max_upload_mb: number;
  features: Record<string, boolean>;
  portal: boolean;
}

/** Which front end is running: the staff back-office or the student portal. */
export type AppKind = 'backoffice' | 'portal';
