import { resourceFormScreen } from '../../../components/resource/resource-form-page';
import { optionConfig } from './option-config';

export default resourceFormScreen(optionConfig);
