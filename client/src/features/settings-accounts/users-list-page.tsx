import { resourceListScreen } from '../../components/resource/resource-list-page';
import { usersConfig } from './users-config';

export default resourceListScreen(usersConfig);
