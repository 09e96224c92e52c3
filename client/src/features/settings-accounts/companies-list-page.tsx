import { resourceListScreen } from '../../components/resource/resource-list-page';
import { companiesConfig } from './companies-config';

export default resourceListScreen(companiesConfig);
