import { resourceListScreen } from '../../components/resource/resource-list-page';
import { branchesConfig } from './branches-config';

export default resourceListScreen(branchesConfig);
