import { useEffect, useState } from 'react';
import { HistoryOutlined } from '@ant-design/icons';
import { Button, Drawer, Empty } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LOCALES, type Locale } from '../../../../shared/features';
import { useAppSelector } from '../../app/hooks';
import {
  readRecent,
  recentTitle,
  rememberVisit,
  type RecentRecord,
  type RecentTitles,
} from './recent-records';

/** A visit's title built with a language's `t` (and that language, for a record's own name). */
export type RecentTitleBuilder = (t: TFunction, language: Locale) => string;

/**
 * Records this screen in the signed-in user's recent list, its title in both languages (built with each language's
 * `t`), so the list reads in the language shown whichever it was visited in.
 */
export function useRememberVisit(
  path: string,
  title: RecentTitleBuilder | null,
  kind: RecentRecord['kind'],
): void {
  const { i18n } = useTranslation();
  const userId = useAppSelector((s) => s.app.user?.id);
  let titles: RecentTitles | null = null;
  if (title) {
    titles = {};
    for (const locale of LOCALES) titles[locale] = title(i18n.getFixedT(locale), locale);
  }
  const key = titles ? JSON.stringify(titles) : null;
  useEffect(() => {
    if (userId && key) rememberVisit(userId, { path, titles: JSON.parse(key) as RecentTitles, kind });
  }, [userId, path, key, kind]);
}

/** The recent-records list (last 20 records or screens visited, this user), in a drawer. */
export function RecentRecordsButton() {
  const { t, i18n } = useTranslation();
  const userId = useAppSelector((s) => s.app.user?.id);
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<RecentRecord[]>([]);
  const language: Locale = i18n.language === 'en' ? 'en' : 'zh_HK';
  return (
    <>
      <Button
        icon={<HistoryOutlined />}
        onClick={() => {
          setItems(userId ? readRecent(userId) : []);
          setOpen(true);
        }}
      >
        {t('resource.recent.button')}
      </Button>
      <Drawer title={t('resource.recent.title')} open={open} onClose={() => setOpen(false)} destroyOnHidden>
        {items.length === 0 ? (
          <Empty description={t('resource.recent.empty')} />
        ) : (
          <ol data-testid="recent-records" className="recent-records">
            {items.map((item) => (
              <li key={item.path}>
                <Link to={item.path} onClick={() => setOpen(false)}>
                  {recentTitle(item, language)}
                </Link>
              </li>
            ))}
          </ol>
        )}
      </Drawer>
    </>
  );
}
