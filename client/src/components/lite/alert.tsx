import type { HTMLAttributes, ReactNode } from 'react';
import { CloseIcon, ErrorIcon, InfoIcon, SuccessIcon, WarningIcon } from './icons';

export type AlertType = 'error' | 'warning' | 'info' | 'success';

const ICONS = { error: ErrorIcon, warning: WarningIcon, info: InfoIcon, success: SuccessIcon };

export interface AlertProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  type?: AlertType;
  title: ReactNode;
  /** full width, no rounded frame, at the top of a page (antd's `banner`) */
  banner?: boolean;
  /** a close button named `closeLabel` */
  onClose?: () => void;
  closeLabel?: string;
  'data-testid'?: string;
}

/**
 * antd's Alert look (tinted box, icon, text) as plain markup. It is an alert for assistive technology
 * (`role="alert"`: read out when it appears) unless the caller gives another role.
 */
export function Alert({
  type = 'info',
  title,
  banner = false,
  onClose,
  closeLabel,
  className,
  role = 'alert',
  ...rest
}: AlertProps) {
  const Icon = ICONS[type];
  const classes = ['lite-alert', `lite-alert--${type}`];
  if (banner) classes.push('lite-alert--banner');
  if (className) classes.push(className);
  return (
    <div {...rest} role={role} className={classes.join(' ')}>
      <Icon className="lite-alert__icon" />
      <div className="lite-alert__message">{title}</div>
      {onClose && (
        <button type="button" className="lite-alert__close" aria-label={closeLabel} onClick={onClose}>
          <CloseIcon />
        </button>
      )}
    </div>
  );
}
