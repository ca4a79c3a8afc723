export { HomePage } from './HomePage';
export { SharedResultsPage } from './SharedHome';
