export {
  dashboardQueryOptions,
  fetchDashboard,
  fetchRecentActivity,
  recentActivityQueryOptions,
  useDashboard,
  useRecentActivity,
} from './dashboard';
export { predictClinical, predictUpload, usePredict } from './predict';
export type { ClinicalPredictBody, PredictInput, SignalKind } from './predict';
