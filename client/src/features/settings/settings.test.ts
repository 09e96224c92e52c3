import { initI18n } from '../../i18n/i18n';
import i18next from 'i18next';
import { testMailMessage } from './general/general-page';
import { importProblems } from '../../components/resource/import-modal';
import { localName } from './names';
import { optionKeyLabel } from './options/option-config';
import { auditConfig } from './audit/audit-config';
import { auditActorName, auditEntityLabel } from '../../components/resource/audit-history';

describe('settings screens: helpers', () => {
  beforeEach(() => initI18n('en'));

  it('lists a refused import’s problems by row number', () => {
    expect(
      importProblems({
        'rows.12.date': ['Row 12: bad date'],
        'rows.3.name_en': ['Row 3: required'],
        'rows.3.date': ['Row 3: repeated'],
      }),
    ).toEqual(['Row 3: required', 'Row 3: repeated', 'Row 12: bad date']);
  });

  it('says the spec’s words when the test mail cannot go', () => {
    const t = i18next.t.bind(i18next) as (key: string) => string;
    const error = (code: string) => ({ status: 422, handled: false, data: { message: 'x', code } });
    expect(testMailMessage(error('smtp_not_configured'), t)).toBe(
      'Please confirm whether the SMTP settings are completed',
    );
    expect(testMailMessage({ ...error('email_failed'), status: 502 }, t)).toBe('Email failed');
  });

  it('names a record in the interface language, the other one when empty', () => {
    expect(localName({ name_en: 'Kowloon', name_zh: '九龍' }, 'en')).toBe('Kowloon');
    expect(localName({ name_en: 'Kowloon', name_zh: '九龍' }, 'zh_HK')).toBe('九龍');
    expect(localName({ label_en: 'Male', label_zh: '' }, 'zh_HK', 'label')).toBe('Male');
  });

  it('has a name for every option list', () => {
    const t = i18next.t.bind(i18next) as (key: string) => string;
    expect(optionKeyLabel('topik_level', t)).toBe('TOPIK level');
  });
});

describe('audit log: kinds of record and the system in the interface language', () => {
  it('labels every record type it filters by, and the system actor, in both languages (no code left)', () => {
    for (const language of ['en', 'zh_HK'] as const) {
      initI18n(language);
      const t = i18next.getFixedT(language) as unknown as (key: string) => string;
      const entity = auditConfig.filters?.find((f) => f.name === 'entity');
      expect(entity?.options?.length).toBeGreaterThan(15);
      const missing = (entity?.options ?? [])
        .filter((o) => !o.labelKey || !i18next.exists(o.labelKey, { lng: language }))
        .map((o) => o.value);
      expect([language, missing]).toEqual([language, []]);
      expect(auditEntityLabel('holiday', t)).toBe(language === 'en' ? 'Holiday' : '假期');
      expect(auditEntityLabel('api_token', t)).toBe(language === 'en' ? 'API token' : 'API 權杖');
      expect(auditActorName({ actor_type: 'system', actor_name: 'system' }, t)).toBe(
        language === 'en' ? 'System' : '系統',
      );
      // the user filter is a picker, not a number typed in
      expect(auditConfig.filters?.find((f) => f.name === 'actor_id')?.type).toBe('custom');
    }
  });
});
