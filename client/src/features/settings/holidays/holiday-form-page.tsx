import { resourceFormScreen } from '../../../components/resource/resource-form-page';
import { holidayConfig } from './holiday-config';

export default resourceFormScreen(holidayConfig);
