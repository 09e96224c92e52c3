import { resourceListScreen } from '../../../components/resource/resource-list-page';
import { holidayConfig } from './holiday-config';

export default resourceListScreen(holidayConfig);
