import { resourceListScreen } from '../../../components/resource/resource-list-page';
import { termsConfig } from './terms-config';

export default resourceListScreen(termsConfig('order'));
