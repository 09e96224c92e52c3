import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { rules } from '../../components/forms/rules';
import { confirmationRule, passwordRule } from './password-rules';

/**
 * The new password and its confirmation, with the spec's rule (shared schema) and the match check: one
 * block for registration, the emailed reset form and the profile's password update.
 */
export function NewPasswordFields({
  passwordLabel,
  confirmationLabel,
  autoFocus = false,
}: {
  passwordLabel: string;
  confirmationLabel: string;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={passwordLabel}
        extra={t('profile.password.rule')}
        rules={[rules.required(t), passwordRule(t)]}
      >
        <Input.Password autoComplete="new-password" autoFocus={autoFocus} />
      </Form.Item>
      <Form.Item
        name="password_confirmation"
        label={confirmationLabel}
        dependencies={['password']}
        rules={[rules.required(t), confirmationRule(t)]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
