export { TestResultsPage } from './TestResultsPage';
