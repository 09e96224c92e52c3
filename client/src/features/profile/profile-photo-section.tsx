import { useState } from 'react';
import { Alert, App, Avatar, Button, Card, Popconfirm, Space, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../app/api';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { errorSummary } from '../../components/forms/server-errors';
import { uploadAccept, uploadFailureText, uploadRefusal } from '../../components/forms/upload-checks';
import { useDeleteProfilePhotoMutation, useUploadProfilePhotoMutation } from './profile-api';

const ACCEPT = uploadAccept('image');

/**
 * The profile photo on /user/profile (feature `managesProfilePhotos`): the current photo, a JPG/PNG/WebP/GIF
 * upload refused here already when it is over the upload limit (`maxUploadSize` MB) or not an image, the
 * server's refusals in words, and removal (once confirmed). The top bar's avatar follows the session user.
 */
export function ProfilePhotoSection() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useAppDispatch();
  const user = useAppSelector((s) => s.app.user);
  const enabled = useAppSelector((s) => s.app.features.managesProfilePhotos);
  const maxMb = useAppSelector((s) => s.app.maxUploadSize);
  const [uploadPhoto, uploading] = useUploadProfilePhotoMutation();
  const [deletePhoto, deleting] = useDeleteProfilePhotoMutation();
  const [error, setError] = useState<string | null>(null);

  if (!enabled || !user) return null;
  const photo = user.profile_photo_url ?? null;

  /** Checks before sending: an image by its name, at most the upload limit. */
  const beforeUpload = (file: File) => {
    const refusal = uploadRefusal(file, maxMb, t, 'image');
    setError(refusal);
    return refusal ? Upload.LIST_IGNORE : true;
  };

  const send = async (file: File) => {
    const result = await uploadPhoto(file);
    if (result.data) {
      dispatch(appActions.setUser({ ...user, profile_photo_url: result.data.profile_photo_url }));
      message.success(t('profile.photo.saved'));
      return;
    }
    if (isApiError(result.error) && result.error.handled) return;
    setError(uploadFailureText(result.error, maxMb, t));
  };

  const remove = async () => {
    setError(null);
    const result = await deletePhoto();
    if (!result.error) {
      dispatch(appActions.setUser({ ...user, profile_photo_url: null }));
      message.success(t('profile.photo.removed'));
    } else if (!(isApiError(result.error) && result.error.handled)) {
      setError(errorSummary(result.error, t));
    }
  };

  return (
    <Card title={t('profile.photo.title')} data-testid="profile-photo-section">
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
      <Space size="large" align="center" wrap>
        <Avatar
          size={96}
          src={photo ?? undefined}
          icon={<UserOutlined />}
          alt={t('profile.photo.alt')}
          data-testid="profile-photo"
        />
        <Space orientation="vertical">
          {!photo && <Typography.Text type="secondary">{t('profile.photo.none')}</Typography.Text>}
          <Space wrap>
            <Upload
              accept={ACCEPT}
              maxCount={1}
              showUploadList={false}
              beforeUpload={beforeUpload}
              customRequest={({ file }) => void send(file as File)}
            >
              <Button icon={<UploadOutlined />} loading={uploading.isLoading}>
                {photo ? t('profile.photo.replace') : t('profile.photo.choose')}
              </Button>
            </Upload>
            {photo && (
              <Popconfirm
                title={t('profile.photo.removeConfirm')}
                description={t('profile.photo.removeConfirmHelp')}
                okText={t('profile.photo.remove')}
                okButtonProps={{ danger: true }}
                cancelText={t('common.cancel')}
                onConfirm={() => remove()}
              >
                <Button danger icon={<DeleteOutlined />} disabled={deleting.isLoading}>
                  {t('profile.photo.remove')}
                </Button>
              </Popconfirm>
            )}
          </Space>
          <Typography.Text type="secondary">{t('profile.photo.help', { max: maxMb })}</Typography.Text>
        </Space>
      </Space>
    </Card>
  );
}
