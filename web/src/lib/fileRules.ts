/** Spec §5: which files each model modal accepts, and how a file's size is shown (§2). */
/** The three recording models. */
export type SignalKind = 'ecg' | 'pcg' | 'ppg';

/** The spec's ECG extensions, then the other formats the server reads (`.hea`: a WFDB header, sent with its signal files; `.dcm`: a DICOM ECG waveform). */
const ECG_EXTENSIONS = ['.pdf', '.dat', '.txt', '.csv', '.ecg', '.edf', '.bdf', '.mat', '.xml', '.hea', '.dcm'];
const AUDIO_EXTENSIONS = ['.wav', '.mp3', '.flac', '.ogg'];
const PPG_TYPES = ['text/csv', 'application/csv', 'text/plain'];
const PPG_EXTENSIONS = ['.csv', '.txt'];
/** Videos the PPG page reads in the browser (the server does not decode video). */
const VIDEO_EXTENSIONS = ['.mp4', '.webm', '.mov', '.m4v', '.ogv', '.mkv'];

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot).toLowerCase() : '';
}

/** The `accept` attribute of each picker. */
export const ACCEPT: Record<SignalKind, string> = {
  ecg: [...ECG_EXTENSIONS, 'application/pdf'].join(','),
  pcg: ['audio/*', ...AUDIO_EXTENSIONS].join(','),
  ppg: [...PPG_EXTENSIONS, ...PPG_TYPES].join(','),
};

/** The `accept` attribute of the PPG sensor page: pulse signals, audio and video. */
export const ACCEPT_PPG_PAGE = [ACCEPT.ppg, ACCEPT.pcg, 'video/*', ...VIDEO_EXTENSIONS].join(',');

/** A video file (by media type, or by extension when the type is not audio). */
export function isVideoFile(file: File): boolean {
  if (file.type.startsWith('video/')) return true;
  return !file.type.startsWith('audio/') && VIDEO_EXTENSIONS.includes(extension(file.name));
}

/** The i18n key of the spec's error for a file the modal refuses, or null when it is accepted. */
export function fileProblem(
  kind: SignalKind,
  file: File,
): 'models.errors.ecgFile' | 'models.errors.pcgFile' | 'models.errors.ppgFile' | null {
  const ext = extension(file.name);
  switch (kind) {
    case 'ecg':
      return ECG_EXTENSIONS.includes(ext) || file.type === 'application/pdf' ? null : 'models.errors.ecgFile';
    case 'pcg':
      return file.type.startsWith('audio/') || AUDIO_EXTENSIONS.includes(ext) ? null : 'models.errors.pcgFile';
    case 'ppg':
      return PPG_TYPES.includes(file.type) || PPG_EXTENSIONS.includes(ext) ? null : 'models.errors.ppgFile';
  }
}

/** Spec §2: the PPG modal shows sizes in KB, the others in MB (two decimals). */
export function fileSize(kind: SignalKind, bytes: number): string {
  return kind === 'ppg' ? `${(bytes / 1024).toFixed(2)} KB` : `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}
