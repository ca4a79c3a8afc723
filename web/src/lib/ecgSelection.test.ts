import { describe, expect, it } from 'vitest';
import { ecgSelectionProblem, headerSignalFiles, mergeSelection } from './ecgSelection';

const HEADER_100 = `100 2 360 650000
100.dat 212 200 11 1024 995 -22131 0 MLII
100.dat 212 200 11 1024 1011 20052 0 V5
# 69 M 1085 1629 x1
`;

const header = (text = HEADER_100, name = '100.hea') => new File([text], name, { type: '' });
/** Format-212 samples: binary, with control bytes. */
const signal = (name = '100.dat') => new File([new Uint8Array([0xe3, 0x33, 0xf3, 0x01, 0x02, 0x00, 0x1f])], name);

describe('headerSignalFiles', () => {
  it('lists each signal file once, skipping comments and blank lines', () => {
    expect(headerSignalFiles(HEADER_100)).toEqual(['100.dat']);
    expect(headerSignalFiles('# a comment\n\nrec 2 500\r\nrec_a.dat 16\r\nrec_b.dat 16\r\n')).toEqual([
      'rec_a.dat',
      'rec_b.dat',
    ]);
  });

  it('names nothing for a multi-segment record or text that is no header', () => {
    expect(headerSignalFiles('multi/3 2 360 1000\nseg1 300\nseg2 700\n')).toEqual([]);
    expect(headerSignalFiles('time,II\n0,1\n')).toEqual([]);
    expect(headerSignalFiles('')).toEqual([]);
  });
});

describe('ecgSelectionProblem', () => {
  it('accepts a header with its signal file, in either order, and a single file', async () => {
    expect(await ecgSelectionProblem([header(), signal()])).toBeNull();
    expect(await ecgSelectionProblem([signal(), header()])).toBeNull();
    expect(await ecgSelectionProblem([new File(['time,II\n0,1\n'], 'ecg.csv')])).toBeNull();
    expect(await ecgSelectionProblem([new File(['0.1\n0.2\n'], 'text.dat')])).toBeNull();
  });

  it('names the signal file a lone header is missing', async () => {
    expect(await ecgSelectionProblem([header()])).toEqual({
      key: 'models.errors.wfdbMissingSignal',
      values: { header: '100.hea', missing: '100.dat' },
    });
  });

  it('asks for the header of a lone binary signal file', async () => {
    expect(await ecgSelectionProblem([signal()])).toEqual({
      key: 'models.errors.wfdbMissingHeader',
      values: { name: '100.dat', header: '100.hea' },
    });
  });

  it('refuses a file of another type with the spec message, two headers, a signal file the header does not name', async () => {
    expect(await ecgSelectionProblem([header(), new File(['x'], 'photo.png')])).toEqual({
      key: 'models.errors.ecgFile',
    });
    expect(await ecgSelectionProblem([header(), header(HEADER_100, '101.hea'), signal()])).toEqual({
      key: 'models.errors.wfdbOneHeader',
    });
    expect(await ecgSelectionProblem([signal(), signal('101.dat')])).toEqual({ key: 'models.errors.wfdbNoHeader' });
    expect(await ecgSelectionProblem([header(), signal(), signal('101.dat')])).toEqual({
      key: 'models.errors.wfdbUnnamed',
      values: { name: '101.dat', header: '100.hea' },
    });
  });
});

describe('mergeSelection', () => {
  it('joins the parts of one record chosen one after the other', () => {
    const hea = header();
    const dat = signal();
    expect(mergeSelection([hea], [dat])).toEqual([hea, dat]);
    expect(mergeSelection([dat], [hea])).toEqual([dat, hea]);
  });

  it('replaces the selection with anything else', () => {
    const csv = new File(['time,II\n'], 'ecg.csv');
    const hea = header();
    expect(mergeSelection([hea], [csv])).toEqual([csv]);
    expect(mergeSelection([csv], [hea])).toEqual([hea]);
    const other = header(HEADER_100, '101.hea');
    expect(mergeSelection([hea, signal()], [other])).toEqual([other]);
  });

  it('replaces a part chosen again rather than sending it twice', () => {
    const first = signal();
    const again = signal();
    const hea = header();
    expect(mergeSelection([hea, first], [again])).toEqual([hea, again]);
  });
});
