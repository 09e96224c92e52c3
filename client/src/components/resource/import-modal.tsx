import { useRef, useState } from 'react';
import { DownloadOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Space, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { can } from '../../../../shared/permissions';
import { isApiError } from '../../app/api';
import { useAppSelector } from '../../app/hooks';
import { buildUrl } from '../../http/client';
import { bodyMessageRef, errorSummary, messageText } from '../forms/server-errors';
import { useResourceWriteMutation } from './resource-api';

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The problems of a refused import in row order: the file's own (`file`: unknown columns …) first, then
 * `rows.<n>.<field>` and `rows.<n>` by row number, each row's in the server's order.
 */
export function importProblems<T>(errors: Record<string, T[]>): T[] {
  const rowOf = (key: string) => Number(/^rows\.(\d+)(?:\.|$)/.exec(key)?.[1] ?? 0);
  return Object.keys(errors)
    .sort((a, b) => rowOf(a) - rowOf(b))
    .flatMap((key) => errors[key]);
}

/** `GET {apiPath}/import/template`: the empty file, its columns headed in `language`. */
export function importTemplateUrl(apiPath: string, format: 'xlsx' | 'csv', language: string): string {
  return buildUrl(`${apiPath}/import/template`, { format, lang: language });
}

type Outcome =
  { kind: 'imported'; count: number } | { kind: 'refused'; summary: string; problems: string[] } | null;

export interface ImportButtonProps {
  /** the collection, e.g. `/api/student-categories` (its `/import` and `/import/template` are used) */
  apiPath: string;
  /** permission module: the button shows for `${module}.create` */
  module: string;
  /** after a file was imported (the lists showing the resource are refreshed by their tags as well) */
  onImported?: (count: number) => void;
  /** test id of the file input (kept in the page, so that a file can be given without opening the modal) */
  fileTestId?: string;
  /** test id of the problems' panel in the modal */
  errorsTestId?: string;
}

/**
 * The import of a resource (`POST {apiPath}/import`, all rows or none): a toolbar button opening a modal with
 * the template downloads (XLSX, CSV; headed in the interface language), the file drop zone, and the answer — the
 * count imported, or every problem the server named by row and column (in the interface language) listed in a
 * scrollable panel inside the modal. A chosen file is sent at once.
 */
export function ImportButton({
  apiPath,
  module,
  onImported,
  fileTestId = 'resource-import-file',
  errorsTestId = 'resource-import-errors',
}: ImportButtonProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const user = useAppSelector((s) => s.app.user);
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [write, { isLoading }] = useResourceWriteMutation();
  if (!can(user, `${module}.create`)) return null;

  const upload = async (file: File) => {
    setOpen(true);
    setOutcome(null);
    setFileName(file.name);
    const body = new FormData();
    body.append('file', file);
    try {
      const result = (await write({ url: `${apiPath}/import`, method: 'POST', body }).unwrap()) as {
        imported: number;
      };
      setOutcome({ kind: 'imported', count: result.imported });
      void message.success(t('resource.import.done', { count: result.imported }));
      onImported?.(result.imported);
    } catch (error) {
      if (isApiError(error) && error.handled) return;
      const keys = isApiError(error) ? error.data?.error_keys : undefined;
      const ref = isApiError(error) ? bodyMessageRef(error.data) : null;
      setOutcome({
        kind: 'refused',
        summary: ref ? messageText(ref, t) : errorSummary(error, t),
        problems: keys ? importProblems(keys).map((r) => messageText(r, t)) : [],
      });
    }
  };

  const language = i18n.language;
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        data-testid={fileTestId}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void upload(file);
        }}
      />
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="resource-import">
        {t('resource.import.button')}
      </Button>
      <Modal
        open={open}
        title={t('resource.import.title')}
        onCancel={() => setOpen(false)}
        footer={<Button onClick={() => setOpen(false)}>{t('resource.import.close')}</Button>}
        width={640}
      >
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {t('resource.import.hint')}
          </Typography.Paragraph>
          <Space wrap>
            <Button icon={<DownloadOutlined />} href={importTemplateUrl(apiPath, 'xlsx', language)} download>
              {t('resource.import.templateXlsx')}
            </Button>
            <Button icon={<DownloadOutlined />} href={importTemplateUrl(apiPath, 'csv', language)} download>
              {t('resource.import.templateCsv')}
            </Button>
          </Space>
          <Upload.Dragger
            accept={ACCEPT}
            multiple={false}
            showUploadList={false}
            disabled={isLoading}
            beforeUpload={(file) => {
              void upload(file);
              return false;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t('resource.import.choose')}</p>
            {fileName && (
              <p className="ant-upload-hint">
                {isLoading ? t('resource.import.reading', { name: fileName }) : fileName}
              </p>
            )}
          </Upload.Dragger>
          {outcome?.kind === 'imported' && (
            <Alert type="success" showIcon title={t('resource.import.done', { count: outcome.count })} />
          )}
          {outcome?.kind === 'refused' && (
            <Alert
              type="error"
              showIcon
              data-testid={errorsTestId}
              title={outcome.summary}
              description={
                outcome.problems.length > 0 && (
                  <div style={{ maxHeight: 280, overflowY: 'auto' }}>
                    <ul style={{ margin: 0, paddingLeft: 20 }}>
                      {outcome.problems.map((p, i) => (
                        <li key={i}>{p}</li>
                      ))}
                    </ul>
                  </div>
                )
              }
            />
          )}
        </Space>
      </Modal>
    </>
  );
}
