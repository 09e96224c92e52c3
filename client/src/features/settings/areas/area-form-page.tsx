import { resourceFormScreen } from '../../../components/resource/resource-form-page';
import { areaConfig } from './area-config';

export default resourceFormScreen(areaConfig);
