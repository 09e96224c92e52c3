import type { ReactNode } from 'react';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/layout/page-header';

/**
 * The UI showcase (spec §2 "/components/ pages"): how the house components look and behave in both
 * languages — a living reference for the feature screens.
 */
export function Showcase({
  titleKey,
  introKey,
  children,
}: {
  titleKey: string;
  introKey: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(titleKey)} />
      <Card>
        <Typography.Paragraph type="secondary">{t(introKey)}</Typography.Paragraph>
        {children}
      </Card>
    </>
  );
}

/** The document statuses of spec §4, each shown with its one-letter prefix. */
export const DOCUMENT_STATUSES = [
  { key: 'pending', letter: 'P', color: 'default' },
  { key: 'uploaded', letter: 'U', color: 'blue' },
  { key: 'submitted', letter: 'S', color: 'green' },
  { key: 'unsubmitted', letter: 'N', color: 'orange' },
  { key: 'cancelled', letter: 'C', color: 'red' },
] as const;
