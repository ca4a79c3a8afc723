/**
 * The analysis page's recording card: the waveform viewer, and for a record longer than the
 * viewer's largest window a timeline of the whole record above it (heart-rate trend, the result's
 * episodes, where the paper is) and, when the result lists episodes, the episodes table after it.
 * The timeline and the table move the paper; the viewer reports what it shows (and the whole
 * record's beats) back here.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Analysis } from '../../api/client';
import { fetchWaveformWindow } from '../../api/waveforms';
import { paths } from '../../app/paths';
import { EpisodesPanel } from '../../components/recording/EpisodesPanel';
import { HolterTables } from '../../components/recording/HolterTables';
import { RecordTimeline } from '../../components/recording/RecordTimeline';
import { centredStart, recordDetails } from '../../components/recording/recordTimeline';
import {
  AnalysisWaveform,
  type WaveformSeek,
  type WaveformWindowState,
} from '../../components/waveform/AnalysisWaveform';
import { recordingMurmur } from '../../lib/auscultation';

/** Records longer than this (seconds: the most the waveform API returns at once) get the timeline. */
const LONG_RECORD_S = 60;

export function AnalysisRecording({ analysis }: { analysis: Analysis }) {
  const { t } = useTranslation();
  const [view, setView] = useState<WaveformWindowState | null>(null);
  const [seek, setSeek] = useState<WaveformSeek | null>(null);
  const record = useMemo(() => recordDetails(analysis.result.details), [analysis.result.details]);
  const long = view !== null && view.total > LONG_RECORD_S;
  const kind = analysis.modality === 'clinical' ? null : analysis.modality;
  if (!kind) return null;
  return (
    <div className="card">
      <h2 className="section__title">{t('waveform.title')}</h2>
      {long ? (
        <RecordTimeline
          duration={view.total}
          beats={view.beats}
          episodes={record.episodes}
          from={view.from}
          span={view.span}
          onMove={(start) => setSeek({ start })}
        />
      ) : null}
      <AnalysisWaveform
        analysisId={analysis.id}
        kind={kind}
        load={fetchWaveformWindow}
        calibrateHref={`${paths.settings}#screen`}
        seek={seek}
        onView={setView}
        murmurTiming={recordingMurmur(analysis.result.details)?.timing}
      />
      {record.episodes !== null ? (
        <EpisodesPanel
          record={record}
          onShow={
            view ? (episode) => setSeek({ start: centredStart(episode.start_s, view.span, view.total) }) : undefined
          }
        />
      ) : null}
      {record.episodes !== null ? <HolterTables details={analysis.result.details} /> : null}
    </div>
  );
}
