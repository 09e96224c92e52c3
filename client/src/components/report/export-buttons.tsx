import { useEffect, useRef, useState } from 'react';
import { DownloadOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, App, Button, Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { http, HttpError, type DownloadedFile } from '../../http/client';
import { errorSummary, fieldErrors } from '../forms/server-errors';

export type FileFormat = 'xlsx' | 'csv' | 'pdf';

/** A size in bytes as people read it: `512 B`, `12.3 KB`, `4.5 MB`. */
export function byteSize(bytes: number, language: string): string {
  const format = (n: number, digits: number) =>
    new Intl.NumberFormat(language === 'en' ? 'en-HK' : 'zh-HK', { maximumFractionDigits: digits }).format(n);
  if (bytes < 1024) return `${format(bytes, 0)} B`;
  if (bytes < 1024 * 1024) return `${format(bytes / 1024, 1)} KB`;
  return `${format(bytes / 1024 / 1024, 1)} MB`;
}

/** Saves a downloaded file as the browser saves a download (its name, the user's downloads folder). */
function save(file: DownloadedFile, fallback: string): string {
  const name = file.name ?? fallback;
  const href = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}

interface Running {
  format: FileFormat;
  received: number;
  total: number | null;
}

/**
 * Buttons that make a file of a result (`url(format)`): the download is read through the one HTTP client, its
 * progress shown beside the buttons (bytes received; a share when the server says the size) with a button that
 * cancels it — the request is aborted, and the server stops its query and its batches — then saved under the name
 * the server gave. A refusal (a PDF past its rows, no export key) is said in words, not as an error screen.
 */
export function ExportButtons({
  url,
  formats,
}: {
  url: (format: FileFormat) => string;
  formats: readonly FileFormat[];
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [running, setRunning] = useState<Running | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  // leaving the screen stops a download nobody will save
  useEffect(() => () => controller.current?.abort(), []);

  const start = async (format: FileFormat) => {
    setFailure(null);
    const abort = new AbortController();
    controller.current = abort;
    setRunning({ format, received: 0, total: null });
    try {
      const file = await http<DownloadedFile>(url(format), {
        responseType: 'file',
        handleErrors: false,
        signal: abort.signal,
        onProgress: (received, total) =>
          setRunning((now) => (now && now.format === format ? { format, received, total } : now)),
      });
      const name = save(file, `report.${format}`);
      void message.success(t('report.export.done', { name }));
    } catch (error) {
      if (error instanceof HttpError && error.aborted) {
        void message.info(t('report.export.cancelled'));
      } else {
        const apiError =
          error instanceof HttpError ? { status: error.status, data: error.body, handled: false } : error;
        const fields = fieldErrors(apiError, t).flatMap((f) => f.errors);
        setFailure(t('report.export.failed', { reason: fields.join(' ') || errorSummary(apiError, t) }));
      }
    } finally {
      if (controller.current === abort) controller.current = null;
      setRunning(null);
    }
  };

  const share = running?.total ? Math.min(99, Math.floor((running.received / running.total) * 100)) : null;
  return (
    <Space orientation="vertical" size={4} style={{ alignItems: 'flex-end' }}>
      <Space wrap>
        {formats.map((format) => (
          <Button
            key={format}
            icon={<DownloadOutlined />}
            data-testid={`report-export-${format}`}
            loading={running?.format === format}
            disabled={running !== null && running.format !== format}
            onClick={() => void start(format)}
          >
            {t(`report.export.${format}`)}
          </Button>
        ))}
      </Space>
      {running && (
        <Space role="status" data-testid="report-export-progress" size={8}>
          <Progress
            percent={share ?? 100}
            status="active"
            showInfo={share !== null}
            size="small"
            style={{ width: 140, margin: 0 }}
            aria-hidden
          />
          <Typography.Text type="secondary">
            {t('report.export.running', {
              format: running.format.toUpperCase(),
              size: byteSize(running.received, i18n.language),
            })}
          </Typography.Text>
          <Button
            size="small"
            icon={<StopOutlined />}
            data-testid="report-export-cancel"
            onClick={() => controller.current?.abort()}
          >
            {t('report.export.cancel')}
          </Button>
        </Space>
      )}
      {failure && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="report-export-failed"
          title={failure}
          closable
          onClose={() => setFailure(null)}
        />
      )}
    </Space>
  );
}
