import { MailOutlined, SwapOutlined } from '@ant-design/icons';
import { App, Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { can } from '../../../../shared/permissions';
import { useAppSelector } from '../../app/hooks';
import { errorSummary, messageText } from '../../components/forms/server-errors';
import { recordAllows } from '../../components/resource/record-access';
import { useResourceActionMutation } from '../../components/resource/resource-api';
import type { RecordTabContext } from '../../components/resource/resource-record-page';
import type { ResourceRow } from '../../components/resource/types';
import { isMessageKey } from '../../../../shared/messages';

/**
 * An accepted quotation converted into an invoice (`POST /api/quotations/{id}/convert`, `orders.create`): asked
 * first, naming the quotation; the new invoice opens. A second convert (another tab, a double click) is refused
 * by the server and said here; nothing is created.
 */
export function ConvertButton({ record, ctx }: { record: ResourceRow; ctx: RecordTabContext }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const user = useAppSelector((s) => s.app.user);
  const [act, { isLoading }] = useResourceActionMutation();
  if (!Array.isArray(record.allowed_actions) || !recordAllows(record, 'convert')) return null;
  if (!can(user, 'orders.create')) return null;
  const label = t('resources.quotation.actions.convert');
  const name = String(record.quotation_no ?? record.id);
  const convert = async () => {
    try {
      const order = await act({
        path: ctx.apiPath,
        id: record.id,
        action: 'convert',
        invalidates: ['/api/orders'],
      }).unwrap();
      void message.success(t('sales.converted', { number: String(order.order_no ?? '') }));
      navigate(`/orders/order/${order.id}`);
    } catch (failure) {
      void message.error(errorSummary(failure, t));
      ctx.reload();
    }
  };
  return (
    <Popconfirm
      title={t('resource.moveConfirm', { action: label, name })}
      okText={label}
      cancelText={t('resource.cancel')}
      onConfirm={convert}
      okButtonProps={{ 'data-testid': 'convert-confirm' } as never}
    >
      <Button type="primary" icon={<SwapOutlined />} loading={isLoading} data-testid="quotation-convert">
        {label}
      </Button>
    </Popconfirm>
  );
}

/**
 * The invoice's PDF e-mailed to its student (`POST /api/orders/{id}/email`): asked first; sent, the address it
 * went to is said; refused, the server's message in the screen's language (the spec's "Please confirm whether
 * the SMTP settings are completed" without SMTP settings, "Email failed" when the mail server refused it).
 */
export function EmailButton({ record, ctx }: { record: ResourceRow; ctx: RecordTabContext }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [act, { isLoading }] = useResourceActionMutation();
  if (!Array.isArray(record.allowed_actions) || !recordAllows(record, 'email')) return null;
  const label = t('resources.order.actions.email');
  const name = String(record.order_no ?? record.id);
  const send = async () => {
    try {
      const answer = (await act({ path: ctx.apiPath, id: record.id, action: 'email' }).unwrap()) as Record<
        string,
        unknown
      >;
      const key = answer.message_key;
      void message.success({
        content: (
          <span data-testid="email-sent">
            {isMessageKey(key)
              ? messageText({ key, params: answer.message_params as Record<string, string> | undefined }, t)
              : t('resource.emailSent', { email: String(answer.email ?? '') })}
          </span>
        ),
      });
    } catch (failure) {
      void message.error({
        content: <span data-testid="email-failed">{errorSummary(failure, t)}</span>,
        duration: 8,
      });
    }
  };
  return (
    <Popconfirm
      title={t('resource.moveConfirm', { action: label, name })}
      okText={label}
      cancelText={t('resource.cancel')}
      onConfirm={send}
    >
      <Button icon={<MailOutlined />} loading={isLoading} data-testid="order-email">
        {label}
      </Button>
    </Popconfirm>
  );
}
