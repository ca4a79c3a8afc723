import { useSearchParams } from 'react-router';
import { SCREENING_PARAM } from '../../app/paths';
import { isNotFound } from '../../lib/apiErrors';
import { useScreening } from './api';

/**
 * The screening named by `?screening=ID`. `missing` is true when there is no id, or the server does not
 * know it (or it belongs to another doctor): the spec's "missing data" screens.
 */
export function useScreeningFromUrl() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get(SCREENING_PARAM)?.trim() || null;
  const query = useScreening(id);
  const missing = !id || (query.isError && isNotFound(query.error));
  return { id, query, missing };
}
