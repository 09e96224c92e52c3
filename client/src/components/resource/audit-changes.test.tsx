import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { makeStore } from '../../app/store';
import { initI18n } from '../../i18n/i18n';
import { AuditChanges } from './audit-history';

const userChange = {
  before: { language: 'en', is_admin: false, name: 'Ada', data_scope: 'x' },
  after: { language: 'zh_HK', is_admin: true, name: 'Ada L', data_scope: 'x' },
};

function show(entity: string, changes: unknown) {
  render(
    <Provider store={makeStore('backoffice')}>
      <AuditChanges entity={entity} changes={changes} />
    </Provider>,
  );
  return screen.getByTestId('audit-changes');
}

/**
 * Issue 31 §4: the audit log's change column showed raw field names and codes (`language: "en" → "zh_HK"`) on
 * zh_HK screens. Each field reads by its label and each value as the record's screens show it.
 */
describe('an audit entry’s changes, in the reader’s language', () => {
  it('names fields by their labels and values by their labels in zh_HK', () => {
    initI18n('zh_HK');
    const shown = show('user', userChange);
    console.log(`audit changes (zh_HK): ${shown.textContent}`);
    expect(screen.getByTestId('audit-change-language').textContent).toBe('語言：英文 → 繁體中文');
    expect(screen.getByTestId('audit-change-is_admin').textContent).toBe('管理員：否 → 是');
    expect(screen.getByTestId('audit-change-name').textContent).toBe('姓名：Ada → Ada L');
    expect(shown.textContent).not.toMatch(/"en"|zh_HK|is_admin/);
    expect(shown.textContent).toContain('；');
  });

  it('and in English for an English reader; a field no declaration names keeps its name', () => {
    initI18n('en');
    show('user', userChange);
    expect(screen.getByTestId('audit-change-language').textContent).toBe(
      'Language: English → Traditional Chinese',
    );
    expect(screen.getByTestId('audit-change-data_scope').textContent).toBe('data_scope: x → x');
  });

  it('a role’s data scope by its label', () => {
    initI18n('zh_HK');
    show('role', { before: { data_scope: 'branch' }, after: { data_scope: 'all' } });
    expect(screen.getByTestId('audit-change-data_scope').textContent).toBe(
      '資料範圍：只限所屬分行 → 所有分行',
    );
  });

  it('a create shows what was entered: no bookkeeping (id, times, users), no field left empty', () => {
    initI18n('en');
    const shown = show('area', {
      before: null,
      after: {
        id: 15,
        parent_id: null,
        name_en: 'Mong Kok',
        name_ko: '',
        created_at: '2026-11-28 02:21:22',
        updated_at: '2026-11-28 02:21:22',
        created_by: 1,
        updated_by: 1,
      },
    });
    expect(shown.textContent).toBe('English name: — → Mong Kok');
  });
});
