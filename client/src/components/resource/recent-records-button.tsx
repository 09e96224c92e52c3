import { useEffect, useState } from 'react';
import { HistoryOutlined } from '@ant-design/icons';
import { Button, Drawer, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { readRecent, rememberVisit, type RecentRecord } from './recent-records';

/** Records this screen in the signed-in user's recent list (once per path and title). */
export function useRememberVisit(path: string, title: string | null, kind: RecentRecord['kind']): void {
  const userId = useAppSelector((s) => s.app.user?.id);
  useEffect(() => {
    if (userId && title) rememberVisit(userId, { path, title, kind });
  }, [userId, path, title, kind]);
}

/** The recent-records list (last 20 records or screens visited, this user), in a drawer. */
export function RecentRecordsButton() {
  const { t } = useTranslation();
  const userId = useAppSelector((s) => s.app.user?.id);
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<RecentRecord[]>([]);
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
                  {item.title}
                </Link>
              </li>
            ))}
          </ol>
        )}
      </Drawer>
    </>
  );
}
