import { useEffect, useRef, useState } from 'react';
import {
  BoldOutlined,
  ItalicOutlined,
  OrderedListOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import './rich-text-editor.css';

export interface RichTextEditorProps {
  id?: string;
  value?: string;
  onChange?: (html: string) => void;
  disabled?: boolean;
  'aria-label'?: string;
}

const COMMANDS = [
  { command: 'bold', icon: <BoldOutlined />, key: 'settings.terms.bold' },
  { command: 'italic', icon: <ItalicOutlined />, key: 'settings.terms.italic' },
  { command: 'underline', icon: <UnderlineOutlined />, key: 'settings.terms.underline' },
  { command: 'insertUnorderedList', icon: <UnorderedListOutlined />, key: 'settings.terms.bullets' },
  { command: 'insertOrderedList', icon: <OrderedListOutlined />, key: 'settings.terms.numbers' },
] as const;

/**
 * A small rich-text field: a contenteditable area with bold, italic, underline and lists. The HTML goes to
 * the server as typed; the server keeps only its allow-list of tags (terms.resource.ts), so nothing here
 * is trusted for safety.
 */
export function RichTextEditor({ id, value, onChange, disabled, ...rest }: RichTextEditorProps) {
  const { t } = useTranslation();
  const area = useRef<HTMLDivElement>(null);

  // Write the value in only when it differs from what is shown (typing must not move the caret).
  useEffect(() => {
    const el = area.current;
    if (el && el.innerHTML !== (value ?? '')) el.innerHTML = value ?? '';
  }, [value]);

  // a `<label for>` names only native controls: the form item's label names this textbox through its id
  const [labelledBy, setLabelledBy] = useState<string | undefined>();
  useEffect(() => {
    const label = id ? document.querySelector(`label[for="${CSS.escape(id)}"]`) : null;
    if (label && !label.id) label.id = `${id}-label`;
    setLabelledBy(label?.id || undefined);
  }, [id]);

  const emit = () => onChange?.(area.current?.innerHTML ?? '');
  return (
    <div className="rich-text">
      <Space size={4} className="rich-text-toolbar">
        {COMMANDS.map((c) => (
          <Button
            key={c.command}
            size="small"
            icon={c.icon}
            aria-label={t(c.key)}
            title={t(c.key)}
            disabled={disabled}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => {
              area.current?.focus();
              document.execCommand(c.command);
              emit();
            }}
          />
        ))}
      </Space>
      <div
        id={id}
        ref={area}
        role="textbox"
        aria-multiline="true"
        aria-label={rest['aria-label']}
        aria-labelledby={rest['aria-label'] ? undefined : labelledBy}
        className="rich-text-area"
        contentEditable={!disabled}
        suppressContentEditableWarning
        onInput={emit}
        onBlur={emit}
      />
    </div>
  );
}
