import { appActions } from '../../app/app-slice';
import { makeStore } from '../../app/store';
import type { Student } from '../../app/types';

/** The signed-in student as the portal holds it (`GET /api/student`). */
export function portalStudent(overrides: Partial<Student> = {}): Student {
  return {
    id: 7,
    student_no: 'HK-2026-0007',
    surname_en: 'Chan',
    given_name_en: 'Siu Ming',
    name_zh: '陳小明',
    name_ko: null,
    gender: 'male',
    birth_date: '2005-04-01',
    nationality: 'HK',
    passport_no: 'K1234567',
    passport_expiry: '2030-01-01',
    korean_level: null,
    topik_level: null,
    visa_type: null,
    visa_expiry: null,
    application_email: 'siuming@example.com',
    phone: '+852 5555 0000',
    address: null,
    email: null,
    portal_email: 'siuming@example.com',
    language: 'en',
    info_submitted_at: null,
    info_confirmed_at: null,
    photo_url: null,
    must_change_password: false,
    ...overrides,
  };
}

/** A portal store with the student signed in and the upload limit known. */
export function portalStore(student: Student = portalStudent()) {
  const store = makeStore('portal');
  store.dispatch(appActions.setStudent(student));
  store.dispatch(appActions.configReceived({ maxUploadSize: 5, features: {} }));
  return store;
}

export const OPTIONS = {
  gender: [
    { value: 'male', label_en: 'Male', label_zh: '男' },
    { value: 'female', label_en: 'Female', label_zh: '女' },
  ],
  nationality: [{ value: 'HK', label_en: 'Hong Kong', label_zh: '香港' }],
  korean_level: [],
  topik_level: [],
  visa_type: [],
  relationship: [{ value: 'mother', label_en: 'Mother', label_zh: '母親' }],
  education_level: [
    { value: 'primary', label_en: 'Primary school', label_zh: '小學' },
    { value: 'secondary', label_en: 'Secondary school', label_zh: '中學' },
  ],
};

/** A checklist row as `GET /api/document` answers it. */
export function documentRow(id: number, status: string, extra: Record<string, unknown> = {}) {
  const codes: Record<string, string> = {
    pending: 'P',
    uploaded: 'U',
    submitted: 'S',
    unsubmitted: 'N',
    cancelled: 'C',
  };
  const withFile = ['uploaded', 'submitted', 'unsubmitted'].includes(status);
  return {
    id,
    application_id: 3,
    name: `Document ${id}`,
    code: codes[status],
    status,
    document_type: null,
    is_required: true,
    due_date: '2026-12-31',
    file_name: withFile ? `scan-${id}.pdf` : null,
    uploaded_at: withFile ? '2026-11-20T02:00:00.000Z' : null,
    can_upload: ['pending', 'uploaded', 'unsubmitted'].includes(status),
    can_remove: status === 'uploaded',
    ...extra,
  };
}

/** An application as `GET /api/application` answers it. */
export const APPLICATION = {
  id: 3,
  school_id: 1,
  school_name_en: 'Seoul University',
  school_name_zh: '首爾大學',
  admission_id: 2,
  intake_name_en: 'Spring 2027',
  intake_name_zh: '2027 春季',
  subject_id: 4,
  subject_name_en: 'Korean Language',
  subject_name_zh: '韓語',
  status: 'draft',
  application_deadline: '2026-12-31',
  timetable: [{ date: '2027-01-15', title_en: 'Interview', title_zh: '面試' }],
  can_withdraw: true,
};
