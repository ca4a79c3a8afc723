export {
  dashboardQueryOptions,
  fetchDashboard,
  fetchRecentActivity,
  recentActivityQueryOptions,
  useDashboard,
  useRecentActivity,
} from './dashboard';
export { usePredict } from './predict';
export type { ClinicalPredictBody, PredictInput } from './predict';
