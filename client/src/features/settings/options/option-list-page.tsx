import { resourceListScreen } from '../../../components/resource/resource-list-page';
import { optionConfig } from './option-config';

export default resourceListScreen(optionConfig);
