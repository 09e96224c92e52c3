import { resourceListScreen } from '../../components/resource/resource-list-page';
import { rolesConfig } from './roles-config';

export default resourceListScreen(rolesConfig);
