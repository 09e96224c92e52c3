import { useEffect, useRef, useState } from 'react';
import { Input } from 'antd';

/**
 * What a list's typed control (its search box, a text filter) shows. It follows the address's value when that
 * changes from elsewhere (a reset, the back button, a link). Its own value reaches the address at once but the list
 * draws it a moment later: what is typed meanwhile is kept, never replaced by the value being drawn.
 * `sent` records a value the control sends (trimmed, as the query keeps it).
 */
export function useTypedQueryValue(value: string | undefined) {
  const [text, setText] = useState(value ?? '');
  const shown = useRef(value ?? '');
  useEffect(() => {
    if ((value ?? '') === shown.current) return;
    shown.current = value ?? '';
    setText(value ?? '');
  }, [value]);
  const sent = (next: string) => {
    shown.current = next.trim();
  };
  return { text, setText, sent };
}

export interface SearchBoxProps {
  /** The search in the address (`q`). */
  value: string | undefined;
  onSearch: (q: string) => void;
  label: string;
}

/** A list's search box (Enter or its button searches; clearing it shows everything again). */
export function SearchBox({ value, onSearch, label }: SearchBoxProps) {
  const { text, setText, sent } = useTypedQueryValue(value);
  return (
    <Input.Search
      aria-label={label}
      placeholder={label}
      value={text}
      onChange={(e) => setText(e.target.value)}
      allowClear
      enterButton
      style={{ width: 280 }}
      onSearch={(q) => {
        sent(q);
        onSearch(q);
      }}
    />
  );
}
