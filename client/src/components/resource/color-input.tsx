import { ColorPicker } from 'antd';
import type { ControlProps } from './from-declaration';

/** A colour kept as `#rrggbb` (loaded on demand by `ColorInput` in from-declaration.tsx). */
export default function ColorInput(props: ControlProps<string>) {
  return (
    <ColorPicker
      disabled={props.disabled}
      value={props.value || undefined}
      format="hex"
      disabledAlpha
      showText
      data-testid={props.id ? `color-${props.id}` : 'color-input'}
      onChange={(color) => props.onChange?.(color.toHexString().slice(0, 7).toLowerCase())}
    />
  );
}
