import type { MouseEvent } from 'react';
import { Button, type ButtonProps } from 'antd';
import { useHref, useNavigate, type To } from 'react-router-dom';

/**
 * A link that looks like a button: one element (`<a class="ant-btn">`), never a button inside a link. A plain
 * click navigates in the app; a modified click (new tab, new window) is the browser's.
 */
export function ButtonLink({ to, onClick, ...props }: Omit<ButtonProps, 'href'> & { to: To }) {
  const href = useHref(to);
  const navigate = useNavigate();
  const click = (e: MouseEvent<HTMLElement>) => {
    onClick?.(e as MouseEvent<HTMLAnchorElement & HTMLButtonElement>);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    void navigate(to);
  };
  return <Button {...props} href={href} onClick={click} />;
}
