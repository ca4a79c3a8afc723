export {
  dashboardQueryOptions,
  fetchDashboard,
  fetchRecentActivity,
  recentActivityQueryOptions,
  useDashboard,
  useRecentActivity,
} from './dashboard';
