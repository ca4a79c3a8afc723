export { AnalysisPage } from './AnalysisPage';
