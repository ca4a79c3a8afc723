import { Navigate, Route, Routes } from 'react-router';
import { AnalysisPage } from '../features/analyses';
import {
  ForgotPasswordPage,
  LoginPage,
  ResetPasswordPage,
  RoleSelectPage,
  SignupPage,
  VerifyEmailPage,
} from '../features/auth';
import { DevicesPage } from '../features/devices';
import { HomePage, SharedResultsPage } from '../features/home';
import { PatientDetailPage, PatientsPage } from '../features/patients';
import { ProfilePage } from '../features/profile';
import { ReportsPage } from '../features/reports';
import { ClinicalDataPage, IntakePage, SensorEcgPage, SensorPcgPage, SensorPpgPage } from '../features/screening';
import { SettingsPage } from '../features/settings';
import { TestResultsPage } from '../features/test-results';
import { WelcomePage } from '../features/welcome';
import { useCurrentUser } from '../lib/session';
import { AppLayout } from './layout/AppLayout';
import { PublicLayout } from './layout/PublicLayout';
import { paths } from './paths';
import { RequireAuth } from './RequireAuth';

/** Test Results: a doctor's analyses, or for a patient account the results shared with it. */
function TestResultsForRole() {
  return useCurrentUser().role === 'doctor' ? <TestResultsPage /> : <SharedResultsPage />;
}

/** The route table (spec §2). */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route path={paths.welcome} element={<WelcomePage />} />
      </Route>
      <Route element={<PublicLayout centered />}>
        <Route path={paths.roleSelection} element={<RoleSelectPage />} />
        <Route path={paths.login} element={<LoginPage />} />
        <Route path={paths.signup} element={<SignupPage />} />
        <Route path={paths.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path={paths.resetPassword} element={<ResetPasswordPage />} />
        <Route path={paths.verifyEmail} element={<VerifyEmailPage />} />
      </Route>
      <Route element={<RequireAuth />}>
        <Route element={<AppLayout />}>
          <Route path={paths.home} element={<HomePage />} />
          <Route path={paths.intake} element={<IntakePage />} />
          <Route path={paths.clinicalData} element={<ClinicalDataPage />} />
          <Route path={paths.sensorPcg} element={<SensorPcgPage />} />
          <Route path={paths.sensorPpg} element={<SensorPpgPage />} />
          <Route path={paths.sensorEcg} element={<SensorEcgPage />} />
          <Route path={paths.patients} element={<PatientsPage />} />
          <Route path={paths.patientDetail} element={<PatientDetailPage />} />
          <Route path={paths.profile} element={<ProfilePage />} />
          <Route path={paths.reports} element={<ReportsPage />} />
          <Route path={paths.testResults} element={<TestResultsForRole />} />
          <Route path={paths.analysisDetail} element={<AnalysisPage />} />
          <Route path={paths.devices} element={<DevicesPage />} />
          <Route path={paths.settings} element={<SettingsPage />} />
        </Route>
      </Route>
      <Route path="*" element={<Navigate to={paths.welcome} replace />} />
    </Routes>
  );
}
