import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ecgSelectionProblem, mergeSelection } from './ecgSelection';
import { fileProblem, type SignalKind } from './fileRules';

/**
 * The files chosen for one recording, checked as they are chosen: one file for PCG and PPG; for
 * an ECG, one file or a WFDB record whose parts may be chosen together or one after the other. A
 * file of the wrong type is refused with the spec's message and not kept; an incomplete WFDB
 * record is kept, with the message naming the missing part, and cannot be sent until it is whole.
 */
export function useRecordingFiles(kind: SignalKind) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [complete, setComplete] = useState(false);
  // The latest check: an older one finishing late does not overwrite it.
  const latest = useRef(0);

  const choose = (chosen: File[]) => {
    const ticket = (latest.current += 1);
    if (kind !== 'ecg') {
      const [file] = chosen;
      const problem = file ? fileProblem(kind, file) : null;
      setError(problem ? t(problem) : null);
      setFiles(file && !problem ? [file] : []);
      setComplete(Boolean(file) && !problem);
      return;
    }
    const next = mergeSelection(files, chosen);
    void ecgSelectionProblem(next).then((problem) => {
      if (ticket !== latest.current) return;
      const refused = problem?.key === 'models.errors.ecgFile';
      setError(problem ? ('values' in problem ? t(problem.key, problem.values) : t(problem.key)) : null);
      setFiles(refused ? [] : next);
      setComplete(!problem && next.length > 0);
    });
  };

  const clear = () => {
    latest.current += 1;
    setFiles([]);
    setError(null);
    setComplete(false);
  };

  return {
    files,
    /** Whether the files can be sent: chosen, of accepted types, and a whole WFDB record. */
    complete,
    error,
    setError,
    choose,
    clear,
  };
}
