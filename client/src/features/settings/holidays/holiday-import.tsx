import { useRef, useState } from 'react';
import { UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { can } from '../../../../../shared/permissions';
import { useAppSelector } from '../../../app/hooks';
import { isApiError } from '../../../app/api';
import { useResourceWriteMutation } from '../../../components/resource/resource-api';
import { errorSummary, translateServerMessage } from '../../../components/forms/server-errors';

/** Row-numbered problems of a refused import, in row order ("Row 3: …"). */
export function importProblems(errors: Record<string, string[]>): string[] {
  const rowOf = (key: string) => Number(/^rows\.(\d+)\./.exec(key)?.[1] ?? 0);
  return Object.keys(errors)
    .sort((a, b) => rowOf(a) - rowOf(b))
    .flatMap((key) => errors[key]);
}

/** Import a year's public holidays from CSV or XLSX (`POST /api/holidays/import`): all or nothing. */
export function HolidayImportButton({ onImported }: { onImported: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const user = useAppSelector((s) => s.app.user);
  const input = useRef<HTMLInputElement>(null);
  const [write, { isLoading }] = useResourceWriteMutation();
  const [problems, setProblems] = useState<string[] | null>(null);
  if (!can(user, 'settings.create')) return null;

  const upload = async (file: File) => {
    setProblems(null);
    const body = new FormData();
    body.append('file', file);
    try {
      const result = (await write({ url: '/api/holidays/import', method: 'POST', body }).unwrap()) as {
        imported: number;
      };
      void message.success(t('settings.holiday.imported', { count: result.imported }));
      onImported();
    } catch (error) {
      if (isApiError(error) && error.data?.errors) {
        setProblems(importProblems(error.data.errors).map((m) => translateServerMessage(m, t)));
      } else setProblems([errorSummary(error, t)]);
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        hidden
        data-testid="holiday-import-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void upload(file);
        }}
      />
      <Button icon={<UploadOutlined />} loading={isLoading} onClick={() => input.current?.click()}>
        {t('settings.holiday.import')}
      </Button>
      {problems && (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => setProblems(null)}
          data-testid="holiday-import-errors"
          title={t('settings.holiday.importRefused')}
          description={
            <ul style={{ margin: 0, paddingLeft: 20 }}>
              {problems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          }
          style={{ width: '100%' }}
        />
      )}
    </>
  );
}
