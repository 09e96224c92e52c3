import { Client, PORTAL_HOST, createStudent, type TestApp } from '../harness';
import { createIntake, createSchool, createSubject, hkDay } from '../students/applications-helpers';

/** Helpers of the portal tests: a signed-in portal student, and an intake open today to choose. */

type Row = Record<string, any>;

export interface PortalStudent {
  id: number;
  email: string;
  password: string;
  client: Client;
}

/** A portal student (its own branch), signed in on the portal host. */
export async function portalStudent(t: TestApp): Promise<PortalStudent> {
  const s = await createStudent(t.db);
  const client = new Client(t.app, PORTAL_HOST);
  const res = await client.login(s.email, s.password);
  if (res.status !== 200) throw new Error(`portal sign-in: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...s, client };
}

/**
 * A school with a subject and an intake whose application window runs from `start` to `deadline` days from today
 * (Hong Kong), with a checklist of `documents`.
 */
export async function intakeWindow(
  admin: Client,
  opts: { start: number; deadline: number; documents?: string[] },
): Promise<{ school: Row; subject: Row; intake: Row }> {
  const school = await createSchool(admin);
  const subject = await createSubject(admin, school.id);
  const intake = await createIntake(admin, school.id, {
    subjectIds: [subject.id],
    documents: opts.documents ?? ['Passport', 'Transcript'],
    deadline: hkDay(opts.deadline),
    extra: { application_start: hkDay(opts.start) },
  });
  return { school, subject, intake };
}

/** A primary and a secondary education entry, and the details submitting needs. */
export async function readyToSubmit(client: Client): Promise<void> {
  const details = await client.put('/api/student', {
    gender: 'M',
    birth_date: '2005-04-01',
    nationality: 'HK',
    passport_no: `K${Math.random().toString(36).slice(2, 9).toUpperCase()}`,
    passport_expiry: hkDay(900),
    phone: '+852 9123 4567',
  });
  if (details.status !== 200) throw new Error(`details: ${details.status} ${JSON.stringify(details.body)}`);
  for (const level of ['primary', 'secondary']) {
    const res = await client.post('/api/education', {
      level,
      school_name: `${level} school`,
      start_date: '2012-09-01',
      end_date: '2018-07-01',
    });
    if (res.status !== 201) throw new Error(`education: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** A small real PNG (content-checked like every upload). */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
