import { Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../../app/hooks';
import { backofficeRoutes } from '../../app/routes/backoffice-routes';
import { buildMenu, type MenuLeaf } from '../../app/routes/menu';

/**
 * /home: where everyone lands who may not open the dashboard. It greets the user and lists the screens the
 * user's role and the enabled features allow (the same list as the menu).
 */
export default function HomePage() {
  const { t } = useTranslation();
  const user = useAppSelector((s) => s.app.user);
  const features = useAppSelector((s) => s.app.features);
  const leaves = buildMenu(backofficeRoutes, user, features)
    .flatMap((node): MenuLeaf[] => ('children' in node ? node.children : [node]))
    .filter((leaf) => leaf.path !== '/home');
  return (
    <div style={{ padding: 24 }}>
      <Typography.Title level={3}>{t('home.welcome', { name: user?.name ?? '' })}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('home.help')}</Typography.Paragraph>
      <Row gutter={[16, 16]} data-testid="home-links">
        {leaves.map((leaf) => (
          <Col key={leaf.key} xs={24} sm={12} md={8} lg={6}>
            <Link to={leaf.path}>
              <Card hoverable size="small">
                {t(leaf.labelKey)}
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
    </div>
  );
}
