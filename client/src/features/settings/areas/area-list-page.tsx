import { resourceListScreen } from '../../../components/resource/resource-list-page';
import { areaConfig } from './area-config';

export default resourceListScreen(areaConfig);
