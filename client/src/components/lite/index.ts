/**
 * A small antd-free kit for the screens on the first load (the sign-in pages and their frame): it looks like the
 * app's antd theme (accent #475569, 6 px radius, 32 px controls) without loading antd. See lite.css.
 */
export { Alert, type AlertType } from './alert';
export { Button, SubmitButton } from './button';
export { Checkbox } from './checkbox';
export { TextField } from './field';
export { LanguageSelect } from './language-select';
export { Panel } from './panel';
export { useLiteForm, type Check, type LiteForm } from './use-lite-form';
import './lite.css';
