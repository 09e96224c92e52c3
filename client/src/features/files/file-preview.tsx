import { DownloadOutlined } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FileItem } from '../../../../shared/files';

/**
 * A file shown in the page (images and PDFs: `preview_url`, served `inline`): an image in an `<img>`, a PDF in
 * an `<iframe>` (the browser's PDF viewer). Closed while `file` is null. Other files have no preview; they
 * are downloaded.
 */
export function FilePreviewModal({ file, onClose }: { file: FileItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const src = file?.preview_url ?? null;
  const image = Boolean(file?.mime_type.startsWith('image/'));
  return (
    <Modal
      open={Boolean(file && src)}
      title={file?.original_name}
      onCancel={onClose}
      width={image ? 720 : 960}
      centered
      destroyOnHidden
      footer={
        file && (
          <>
            <Button icon={<DownloadOutlined />} href={file.url} download={file.original_name}>
              {t('files.download')}
            </Button>
            <Button type="primary" onClick={onClose}>
              {t('files.close')}
            </Button>
          </>
        )
      }
    >
      {file && src && (
        <div data-testid="file-preview" style={{ textAlign: 'center' }}>
          {image ? (
            <img
              src={src}
              alt={file.original_name}
              style={{ maxWidth: '100%', maxHeight: '70vh', objectFit: 'contain' }}
            />
          ) : (
            <iframe
              src={src}
              title={file.original_name}
              style={{ width: '100%', height: '70vh', border: 0 }}
            />
          )}
        </div>
      )}
    </Modal>
  );
}
