import { resourceFormScreen } from '../../components/resource/resource-form-page';
import { branchesConfig } from './branches-config';

export default resourceFormScreen(branchesConfig);
