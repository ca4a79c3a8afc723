import { useNavigate } from 'react-router';
import { paths, screeningPath } from '../../app/paths';
import { useStartScreening } from './api';

/** "Run Diagnostics": start a screening, then open its clinical data step. */
export function useRunDiagnostics() {
  const navigate = useNavigate();
  const start = useStartScreening();
  const run = (patientId: string) =>
    start.mutate(patientId, {
      onSuccess: (screening) => void navigate(screeningPath(paths.clinicalData, screening.id)),
    });
  return { run, start };
}
