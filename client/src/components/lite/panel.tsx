import type { HTMLAttributes } from 'react';

/** antd's Card look (white, thin border, 8 px radius, 24 px padding) around a form. */
export function Panel({ className, ...rest }: HTMLAttributes<HTMLElement>) {
  return <section {...rest} className={`lite-panel${className ? ` ${className}` : ''}`} />;
}
