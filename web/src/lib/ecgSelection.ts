/**
 * Checks the files chosen for one ECG before they are sent: one file, or one WFDB record (a `.hea`
 * header with the signal files it names, chosen or dropped together). A missing part is named
 * here, by file, rather than left to a 415 or 422 from the server.
 *
 * The header's layout is PhysioNet's (WFDB "header(5)"): a record line, then one line per signal
 * whose first field is the signal file's name; `#` starts a comment.
 */
import { fileProblem } from './fileRules';

/** Why a selection cannot be sent: an i18n key with its values. */
export type SelectionProblem =
  | { key: 'models.errors.ecgFile' | 'models.errors.wfdbOneHeader' | 'models.errors.wfdbNoHeader' }
  | { key: 'models.errors.wfdbMissingSignal'; values: { header: string; missing: string } }
  | { key: 'models.errors.wfdbMissingHeader' | 'models.errors.wfdbUnnamed'; values: { name: string; header: string } };

/** A header larger than this is not a WFDB header (real ones are a few hundred bytes). */
const HEADER_LIMIT = 64 * 1024;
/** How much of a lone signal file is looked at to tell text from binary samples. */
const SNIFF_BYTES = 4096;

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot).toLowerCase() : '';
}

function stem(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(0, dot) : name;
}

const isHeader = (file: File) => extension(file.name) === '.hea';

/**
 * The signal file names a WFDB header lists, in order and without repeats (empty when the text is
 * not a single-segment header: a multi-segment record's lines name other records, and the server
 * answers those).
 */
export function headerSignalFiles(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const [recordName, count] = lines[0]?.split(/\s+/) ?? [];
  // "name/segments nsig ..." is a multi-segment record.
  if (!recordName || !count || recordName.includes('/')) return [];
  const signals = Number.parseInt(count, 10);
  if (!Number.isFinite(signals) || signals <= 0) return [];
  const names: string[] = [];
  for (const line of lines.slice(1, 1 + signals)) {
    const name = line.split(/\s+/)[0];
    if (name && name !== '~' && !names.includes(name)) names.push(name);
  }
  return names;
}

/** Whether the start of a file holds binary samples (control bytes other than tab, CR, LF, FF). */
function looksBinary(bytes: Uint8Array): boolean {
  return bytes.some((b) => b < 9 || (b > 13 && b < 32) || b === 11);
}

async function readText(file: File, limit: number): Promise<string> {
  return new TextDecoder().decode(await file.slice(0, limit).arrayBuffer());
}

/**
 * The problem with a selection of ECG files, or null when it can be sent: every file of an
 * accepted type (the spec's message otherwise), at most one header, every signal file the header
 * names present and nothing it does not name, and a lone binary `.dat` asked for its header.
 */
export async function ecgSelectionProblem(files: File[]): Promise<SelectionProblem | null> {
  if (files.length === 0) return null;
  if (files.some((file) => fileProblem('ecg', file) !== null)) return { key: 'models.errors.ecgFile' };
  const headers = files.filter(isHeader);
  if (headers.length > 1) return { key: 'models.errors.wfdbOneHeader' };
  const header = headers.at(0);
  if (!header) {
    if (files.length > 1) return { key: 'models.errors.wfdbNoHeader' };
    const [file] = files;
    if (!file || extension(file.name) !== '.dat') return null;
    const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
    return looksBinary(head)
      ? { key: 'models.errors.wfdbMissingHeader', values: { name: file.name, header: `${stem(file.name)}.hea` } }
      : null;
  }
  const named = header.size <= HEADER_LIMIT ? headerSignalFiles(await readText(header, HEADER_LIMIT)) : [];
  if (named.length === 0) return null;
  const chosen = new Set(files.map((file) => file.name));
  const missing = named.filter((name) => !chosen.has(name));
  if (missing.length > 0) {
    return { key: 'models.errors.wfdbMissingSignal', values: { header: header.name, missing: missing.join(', ') } };
  }
  const unnamed = files.find((file) => file !== header && !named.includes(file.name));
  return unnamed ? { key: 'models.errors.wfdbUnnamed', values: { name: unnamed.name, header: header.name } } : null;
}

/**
 * The selection after the user adds `added` to `current`: a WFDB part (header or signal file)
 * joins an incomplete record already chosen, so a header and its `.dat` can be picked one after
 * the other; anything else replaces the selection.
 */
export function mergeSelection(current: File[], added: File[]): File[] {
  const wfdbPart = (file: File) => ['.hea', '.dat', '.mat'].includes(extension(file.name));
  const joins =
    current.length > 0 &&
    current.every(wfdbPart) &&
    added.every(wfdbPart) &&
    [...current, ...added].filter(isHeader).length === 1;
  if (!joins) return added;
  const names = new Set(added.map((file) => file.name));
  return [...current.filter((file) => !names.has(file.name)), ...added];
}
