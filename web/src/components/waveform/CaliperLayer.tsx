/**
 * The calipers drawn over the ECG paper (an SVG the size of the canvas): the two edges, the level
 * of each end, march-out ticks; and, while calipers are on, dragging on the paper (mouse, pen or
 * touch) lays a caliper or moves the end under the pointer; an end dropped or dragged within 2 mm
 * of a fiducial line (`snapTo`) snaps to it. The maths is in `calipers.ts`.
 */
import { useRef, type PointerEvent } from 'react';
import {
  edgeNear,
  marchOut,
  pointAt,
  snapTime,
  xAt,
  yAt,
  type Caliper,
  type CaliperFrame,
  type Edge,
} from './calipers';

export function CaliperLayer({
  frame,
  span,
  width,
  height,
  enabled,
  caliper: caliperIn,
  march,
  snapTo = [],
  onChange,
}: {
  frame: CaliperFrame;
  span: number;
  width: number;
  height: number;
  enabled: boolean;
  caliper: Caliper | null;
  march: boolean;
  /** Times (seconds) an end snaps to: the fiducial lines shown; none when they are hidden. */
  snapTo?: readonly number[];
  onChange: (caliper: Caliper | null) => void;
}) {
  const dragging = useRef<Edge | null>(null);
  // A caliper laid on a row that a new layout no longer has is shown on its last row.
  const caliper =
    caliperIn && caliperIn.row >= frame.rows ? { ...caliperIn, row: Math.max(0, frame.rows - 1) } : caliperIn;

  const local = (event: PointerEvent<SVGSVGElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    const { row, point } = pointAt(frame, event.clientX - rect.left, event.clientY - rect.top);
    return { row, point: { ...point, t: snapTime(frame, point.t, snapTo) } };
  };
  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (!enabled || event.button > 0) return;
    const { row, point } = local(event);
    const rect = event.currentTarget.getBoundingClientRect();
    const grabbed = edgeNear(frame, caliper, event.clientX - rect.left, row);
    event.currentTarget.setPointerCapture?.(event.pointerId);
    event.preventDefault();
    if (caliper && grabbed) {
      dragging.current = grabbed;
      onChange({ ...caliper, active: grabbed, [grabbed]: point });
    } else {
      dragging.current = 'b';
      onChange({ row, a: point, b: point, active: 'b' });
    }
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const edge = dragging.current;
    if (!enabled || !edge || !caliper) return;
    // The level is read on the caliper's own row, even when the pointer strays into the next.
    const { point } = local(event);
    const rowTop = caliper.row * frame.rowHeight;
    const rect = event.currentTarget.getBoundingClientRect();
    const y = Math.min(Math.max(event.clientY - rect.top, rowTop), rowTop + frame.rowHeight);
    const mv = Math.round(((rowTop + frame.baseline - y) / frame.pxPerMv) * 100) / 100;
    onChange({ ...caliper, [edge]: { t: point.t, mv } });
  };
  const onPointerUp = () => {
    dragging.current = null;
  };

  let drawing = null;
  if (caliper) {
    const top = caliper.row * frame.rowHeight;
    const bottom = top + frame.rowHeight;
    const ends = (['a', 'b'] as const).map((edge) => ({
      edge,
      x: xAt(frame, caliper[edge].t),
      y: yAt(frame, caliper.row, caliper[edge].mv),
    }));
    const [a, b] = ends;
    const ticks = march ? marchOut(caliper, frame.from, frame.from + span) : [];
    drawing = (
      <g className="calipers__caliper" data-testid="caliper" data-row={caliper.row}>
        {ticks.map((t) => (
          <line
            key={t}
            className="calipers__tick"
            x1={xAt(frame, t)}
            x2={xAt(frame, t)}
            y1={top + frame.rowHeight * 0.15}
            y2={bottom - frame.rowHeight * 0.15}
          />
        ))}
        {ends.map(({ edge, x, y }) => (
          <g
            key={edge}
            className={edge === caliper.active ? 'calipers__edge calipers__edge--active' : 'calipers__edge'}
          >
            <line x1={x} x2={x} y1={top} y2={bottom} />
            <line x1={x - 8} x2={x + 8} y1={y} y2={y} />
          </g>
        ))}
        {a && b ? <line className="calipers__span" x1={a.x} x2={b.x} y1={top + 6} y2={top + 6} /> : null}
      </g>
    );
  }
  return (
    <svg
      className={enabled ? 'calipers calipers--on' : 'calipers'}
      width={width}
      height={height}
      aria-hidden="true"
      data-testid="caliper-layer"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      data-march-ticks={caliper && march ? marchOut(caliper, frame.from, frame.from + span).length : 0}
    >
      {drawing}
    </svg>
  );
}
