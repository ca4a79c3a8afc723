//! The 12-lead page: a landscape A4 page at true scale (25 mm/s, 10 mm/mV, 1 mm and 5 mm grid) in
//! the standard layout, 3 rows x 4 columns of 2.5 s (I, aVR, V1, V4 / II, aVL, V2, V5 / III, aVF,
//! V3, V6) and a 10-s rhythm strip (lead II, else the analysed lead), a 1 mV calibration pulse at
//! each row's start, and above the grid the measurements and the interpretation as carts print
//! them.
//!
//! A record with fewer standard leads (a 6-lead Kardia: I, II, III, aVR, aVL, aVF) is drawn in the
//! same grid: the cells of the leads it lacks hold their name and no trace. What is drawn is
//! planned first by [`plan`], a pure function of the channel names (its coordinates are what the
//! tests check), then drawn by [`draw`].

use cardio_models::{ecg12::Lead, waveform::Waveform};

use super::{
    interpretation::Interpretation,
    layout::{ink, muted, rgb, Face, Writer, LANDSCAPE_H, LANDSCAPE_W},
    paper::{self, grid_lines, GridLine, MM_PER_MV, MM_PER_S},
};

/// Seconds per column of the 3 x 4 layout.
pub const COLUMN_S: f32 = 2.5;
/// Seconds of the rhythm strip.
pub const RHYTHM_S: f32 = 10.0;
/// The standard layout, row by row.
pub const LAYOUT: [[Lead; 4]; 3] = [
    [Lead::I, Lead::AVR, Lead::V1, Lead::V4],
    [Lead::II, Lead::AVL, Lead::V2, Lead::V5],
    [Lead::III, Lead::AVF, Lead::V3, Lead::V6],
];
/// Height of a row (3 mV), mm.
const ROW_H: f32 = 30.0;
/// Height of the baseline above a row's bottom, mm (room for 1.8 mV up, 1.2 mV down).
const BASELINE: f32 = 12.0;
/// Room for the calibration pulse before the first column, mm.
const CAL_W: f32 = 10.0;
/// Bottom of the grid, mm (above the footer).
const GRID_BOTTOM: f32 = 20.0;
/// Fewest standard leads for the 12-lead page (as for the 12-lead statements).
pub const MIN_LEADS: usize = cardio_models::ecg12::report::MIN_VERDICT_LEADS;

/// One piece of trace: a lead between two times, in its place on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The lead's printed name.
    pub lead: String,
    /// The channel drawn, `None` when the record lacks the lead (the cell holds only its name).
    pub channel: Option<usize>,
    /// Left edge, mm.
    pub x: f32,
    /// Width, mm (the time span at 25 mm/s).
    pub width: f32,
    /// Bottom of its row, mm.
    pub bottom: f32,
    /// Its row's baseline (0 mV), mm.
    pub baseline: f32,
    /// Start, seconds from the window's start.
    pub from_s: f32,
    /// End, seconds.
    pub to_s: f32,
    /// Where its name is written (the baseline of the text), mm.
    pub label: (f32, f32),
}

/// What the page draws, mm from the page's bottom-left corner.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Left, bottom, width and height of the grid.
    pub grid_box: (f32, f32, f32, f32),
    /// The grid's lines, every 1 mm, the 5 mm ones major.
    pub grid: Vec<GridLine>,
    /// The calibration pulses, one polyline per row: 1 mV (10 mm) high, 0.2 s (5 mm) wide.
    pub pulses: Vec<Vec<(f32, f32)>>,
    /// The pieces of trace: the 12 cells, then the rhythm strip.
    pub cells: Vec<Cell>,
}

/// The channel of each standard lead (the first channel whose name names it).
fn lead_channels(names: &[String]) -> Vec<(Lead, usize)> {
    let mut found: Vec<(Lead, usize)> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        if let Some(lead) = Lead::parse(name) {
            if !found.iter().any(|(l, _)| *l == lead) {
                found.push((lead, i));
            }
        }
    }
    found
}

/// Whether a record with these channels gets the 12-lead page: at least [`MIN_LEADS`] standard
/// leads (a single-lead ECG keeps its strip).
pub fn applies(names: &[String]) -> bool {
    lead_channels(names).len() >= MIN_LEADS
}

/// A 1 mV calibration pulse (10 mm high, 0.2 s = 5 mm wide) starting at `x` on `baseline`.
pub fn pulse(x: f32, baseline: f32) -> Vec<(f32, f32)> {
    let top = baseline + MM_PER_MV;
    let (rise, fall) = (x + 2.0, x + 2.0 + 0.2 * MM_PER_S);
    vec![
        (x, baseline),
        (rise, baseline),
        (rise, top),
        (fall, top),
        (fall, baseline),
        (fall + 1.5, baseline),
    ]
}

/// The page's plan for a record whose channels are `names`, its rhythm strip from channel
/// `rhythm`.
pub fn plan(names: &[String], rhythm: usize) -> Plan {
    let channels = lead_channels(names);
    let width = CAL_W + RHYTHM_S * MM_PER_S;
    let height = 4.0 * ROW_H;
    let left = ((LANDSCAPE_W - width) / 2.0).round();
    let bottom = GRID_BOTTOM;
    let column_w = COLUMN_S * MM_PER_S;
    let trace_left = left + CAL_W;
    let row_bottom = |row: usize| bottom + (3 - row) as f32 * ROW_H;
    let label_at = |x: f32, row: usize| (x + 1.0, row_bottom(row) + ROW_H - 4.0);
    let mut cells = Vec::new();
    for (row, leads) in LAYOUT.iter().enumerate() {
        for (column, lead) in leads.iter().enumerate() {
            let x = trace_left + column as f32 * column_w;
            cells.push(Cell {
                lead: lead.name().to_owned(),
                channel: channels.iter().find(|(l, _)| l == lead).map(|&(_, i)| i),
                x,
                width: column_w,
                bottom: row_bottom(row),
                baseline: row_bottom(row) + BASELINE,
                from_s: column as f32 * COLUMN_S,
                to_s: (column + 1) as f32 * COLUMN_S,
                label: label_at(x, row),
            });
        }
    }
    let rhythm_name = names
        .get(rhythm)
        .map(|n| Lead::parse(n).map_or_else(|| n.trim().to_owned(), |l| l.name().to_owned()))
        .unwrap_or_default();
    cells.push(Cell {
        lead: rhythm_name,
        channel: names.get(rhythm).map(|_| rhythm),
        x: trace_left,
        width: RHYTHM_S * MM_PER_S,
        bottom: row_bottom(3),
        baseline: row_bottom(3) + BASELINE,
        from_s: 0.0,
        to_s: RHYTHM_S,
        label: label_at(trace_left, 3),
    });
    Plan {
        grid_box: (left, bottom, width, height),
        grid: grid_lines(left, bottom, width, height),
        pulses: (0..4)
            .map(|row| pulse(left + 1.5, row_bottom(row) + BASELINE))
            .collect(),
        cells,
    }
}

/// The rhythm strip's channel: lead II when the record has it, else the analysed channel.
pub fn rhythm_channel(w: &Waveform) -> usize {
    w.channels
        .iter()
        .position(|c| Lead::parse(&c.name) == Some(Lead::II))
        .unwrap_or(w.analysed_channel)
}

/// The words above the grid.
pub struct Header<'a> {
    /// The page's title ("12-lead ECG").
    pub title: &'a str,
    /// Who and when (the patient, the recording's date).
    pub subtitle: &'a str,
    /// The measurements as (label, value).
    pub measurements: &'a [(String, String)],
    /// The statements under their heading.
    pub interpretation: Option<&'a Interpretation>,
    /// The caption: "Scale: 25 mm/s, 10 mm/mV".
    pub scale: &'a str,
    /// The calibration pulse's label ("1 mV").
    pub calibration: &'a str,
}

/// Draws the 12-lead page of `w` on a new landscape page.
pub fn draw(out: &mut Writer, w: &Waveform, header: &Header<'_>) {
    out.new_landscape_page();
    let names: Vec<String> = w.channels.iter().map(|c| c.name.clone()).collect();
    let plan = plan(&names, rhythm_channel(w));
    write_header(out, header, &plan);
    paper::draw_grid(out, plan.grid_box, &plan.grid);
    let dark = rgb(20, 20, 30);
    for (i, p) in plan.pulses.iter().enumerate() {
        out.stroke(p, 0.7, &dark);
        if i == 0 {
            let (x, y) = p[2];
            out.text_at(
                header.calibration,
                x - 1.0,
                y + 1.2,
                6.0,
                Face::Regular,
                muted(),
            );
        }
    }
    for cell in &plan.cells {
        out.text_at(
            &cell.lead,
            cell.label.0,
            cell.label.1,
            8.0,
            Face::Bold,
            ink(),
        );
        let Some(channel) = cell.channel.and_then(|i| w.channels.get(i)) else {
            continue;
        };
        let base = paper::median(channel.samples.iter().flatten().copied());
        // As on a cart, a tall wave may run into the next row, never off the paper.
        let (_, low, _, height) = plan.grid_box;
        let high = low + height;
        let rate = w.sampling_rate_hz as f32;
        let mut run: Vec<(f32, f32)> = Vec::new();
        for (i, v) in channel.samples.iter().enumerate() {
            let t = i as f32 / rate;
            if t < cell.from_s || t > cell.to_s {
                continue;
            }
            match v.filter(|v| v.is_finite()) {
                Some(v) => run.push((
                    cell.x + (t - cell.from_s) * MM_PER_S,
                    (cell.baseline + (v - base) * MM_PER_MV).clamp(low, high),
                )),
                None => out.stroke(&std::mem::take(&mut run), 0.5, &dark),
            }
        }
        out.stroke(&run, 0.5, &dark);
        if cell.from_s > 0.0 {
            // The mark between two leads of a row.
            out.stroke(
                &[(cell.x, cell.baseline - 3.0), (cell.x, cell.baseline + 3.0)],
                0.6,
                &dark,
            );
        }
    }
}

/// Title, measurements and statements above the grid, the caption just over its right end.
fn write_header(out: &mut Writer, header: &Header<'_>, plan: &Plan) {
    let (left, bottom, width, height) = plan.grid_box;
    let top = LANDSCAPE_H - 12.0;
    out.text_at(header.title, left, top, 12.0, Face::Bold, rgb(150, 20, 40));
    let title_w = out.width(header.title, 12.0, Face::Bold);
    out.text_at(
        header.subtitle,
        left + title_w + 4.0,
        top,
        8.5,
        Face::Regular,
        muted(),
    );
    // Measurements on the left, one a line; statements to their right.
    let size = 8.5;
    let line = Writer::line_height(size);
    let label_w = out.label_column(
        &header
            .measurements
            .iter()
            .map(|(k, _)| k.as_str())
            .collect::<Vec<_>>(),
        14.0,
    );
    let mut y = top - 7.0;
    for (label, value) in header.measurements {
        out.text_at(label, left, y, size, Face::Bold, muted());
        out.text_at(value, left + label_w, y, size, Face::Regular, ink());
        y -= line;
    }
    let caption_y = bottom + height + 1.5;
    if let Some(interpretation) = header.interpretation {
        let x = left + 80.0;
        let text_w = left + width - x;
        let floor = caption_y + line;
        let mut y = top - 7.0;
        for heading in out.wrap(&interpretation.heading, size, Face::Bold, text_w) {
            out.text_at(&heading, x, y, size, Face::Bold, ink());
            y -= line;
        }
        let lines: Vec<String> = interpretation
            .statements
            .iter()
            .flat_map(|s| out.wrap(s, size, Face::Regular, text_w - 4.0))
            .collect();
        let room = ((y - floor) / line).floor().max(1.0) as usize;
        for (i, text) in lines.iter().enumerate().take(room) {
            let shown = if i + 1 == room && lines.len() > room {
                "…"
            } else {
                text.as_str()
            };
            out.text_at(shown, x + 4.0, y, size, Face::Regular, ink());
            y -= line;
        }
    }
    let caption_w = out.width(header.scale, 7.5, Face::Regular);
    out.text_at(
        header.scale,
        left + width - caption_w,
        caption_y,
        7.5,
        Face::Regular,
        muted(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardio_models::{
        analysis::Kind,
        waveform::{Waveform, WaveformChannel},
    };
    use printpdf::{Mm, Pt};

    /// A drawn straight segment: its line width (pt) and its ends (pt).
    type Segment = (f32, (f32, f32), (f32, f32));

    /// Every straight segment drawn on the document's last page, read back from the PDF.
    fn drawn_segments(bytes: &[u8]) -> Vec<Segment> {
        let mut doc = lopdf::Document::load_mem(bytes).unwrap();
        doc.decompress();
        let page = *doc.get_pages().values().last().unwrap();
        let content = doc.get_and_decode_page_content(page).unwrap();
        let n = |o: &lopdf::Object| o.as_float().unwrap();
        let (mut width, mut at, mut out) = (1.0, (0.0, 0.0), Vec::new());
        for op in &content.operations {
            match op.operator.as_str() {
                "w" => width = n(&op.operands[0]),
                "m" => at = (n(&op.operands[0]), n(&op.operands[1])),
                "l" => {
                    let to = (n(&op.operands[0]), n(&op.operands[1]));
                    out.push((width, at, to));
                    at = to;
                }
                _ => {}
            }
        }
        out
    }

    /// 10 s at 500 Hz of each standard lead: a 1 mV spike every second on a flat line.
    fn waveform() -> Waveform {
        let samples: Vec<Option<f32>> = (0..5000)
            .map(|i| Some(if i % 500 == 100 { 1.0 } else { 0.0 }))
            .collect();
        Waveform {
            kind: Kind::Ecg,
            sampling_rate_hz: 500.0,
            source_rate_hz: 500.0,
            duration_s: 10.0,
            start_s: 0.0,
            end_s: 10.0,
            channels: Lead::ALL
                .iter()
                .map(|l| WaveformChannel {
                    name: l.name().to_owned(),
                    unit: "mV".into(),
                    samples: samples.clone(),
                })
                .collect(),
            analysed_channel: 1,
            beats_s: Vec::new(),
            s1_s: Vec::new(),
            s2_s: Vec::new(),
            marks_note: None,
        }
    }

    #[test]
    fn the_drawn_page_is_landscape_at_true_scale() {
        let mut out = Writer::new("t").unwrap();
        let header = Header {
            title: "12-lead ECG",
            subtitle: "",
            measurements: &[],
            interpretation: None,
            scale: "Scale: 25 mm/s, 10 mm/mV",
            calibration: "1 mV",
        };
        draw(&mut out, &waveform(), &header);
        assert!((out.page_width() - LANDSCAPE_W).abs() < 1e-4);
        let bytes = out.finish("f", |n, t| format!("{n}/{t}")).unwrap();

        let segments = drawn_segments(&bytes);

        let vertical = |w: f32, length: f32| -> Vec<f32> {
            let mut xs: Vec<f32> = segments
                .iter()
                .filter(|(lw, a, b)| {
                    (lw - w).abs() < 1e-3
                        && (a.0 - b.0).abs() < 1e-3
                        && ((a.1 - b.1).abs() - length).abs() < 1e-2
                })
                .map(|(_, a, _)| a.0)
                .collect();
            xs.sort_by(f32::total_cmp);
            xs.dedup_by(|a, b| (*a - *b).abs() < 1e-3);
            xs
        };
        // Major grid lines (0.5 pt) across the 120-mm grid, 5 mm = 14.1732 pt apart.
        let major = vertical(0.5, pt(120.0));
        assert_eq!(major.len(), 53, "{major:?}");
        for pair in major.windows(2) {
            assert!((pair[1] - pair[0] - 14.1732).abs() < 1e-2, "{pair:?}");
        }
        // The calibration pulses (0.7 pt): two sides 10 mm = 28.3465 pt tall per row.
        let pulse_sides = segments
            .iter()
            .filter(|(lw, a, b)| {
                (lw - 0.7).abs() < 1e-3
                    && (a.0 - b.0).abs() < 1e-3
                    && ((a.1 - b.1).abs() - 28.3465).abs() < 1e-2
            })
            .count();
        assert_eq!(pulse_sides, 8);
        // The marks between the leads of a row (0.6 pt): 62.5 mm = 177.165 pt apart.
        let marks = vertical(0.6, pt(6.0));
        assert_eq!(marks.len(), 3, "{marks:?}");
        for pair in marks.windows(2) {
            assert!((pair[1] - pair[0] - 177.165).abs() < 1e-2, "{pair:?}");
        }
    }

    fn pt(mm: f32) -> f32 {
        Pt::from(Mm(mm)).0
    }

    fn twelve() -> Vec<String> {
        Lead::ALL.iter().map(|l| l.name().to_owned()).collect()
    }

    #[test]
    fn the_grid_pulse_and_columns_are_at_true_scale() {
        let plan = plan(&twelve(), 1);

        // Major vertical lines 5 mm (14.1732 pt) apart, minor ones 1 mm.
        let major: Vec<f32> = plan
            .grid
            .iter()
            .filter(|l| l.major && l.from.0 == l.to.0)
            .map(|l| pt(l.from.0))
            .collect();
        assert!(major.len() > 40);
        for pair in major.windows(2) {
            assert!((pair[1] - pair[0] - 14.1732).abs() < 1e-2, "{pair:?}");
        }
        let horizontal: Vec<f32> = plan
            .grid
            .iter()
            .filter(|l| l.major && l.from.1 == l.to.1)
            .map(|l| pt(l.from.1))
            .collect();
        for pair in horizontal.windows(2) {
            assert!((pair[1] - pair[0] - 14.1732).abs() < 1e-2, "{pair:?}");
        }
        // The 1 mV pulse is 10 mm (28.3465 pt) tall at each of the four rows.
        assert_eq!(plan.pulses.len(), 4);
        for p in &plan.pulses {
            let ys: Vec<f32> = p.iter().map(|&(_, y)| pt(y)).collect();
            let tall = ys.iter().copied().fold(f32::MIN, f32::max)
                - ys.iter().copied().fold(f32::MAX, f32::min);
            assert!((tall - 28.3465).abs() < 1e-2, "{tall}");
        }
        // A 2.5-s column is 62.5 mm (177.165 pt) wide; the rhythm strip 10 s (250 mm).
        assert_eq!(plan.cells.len(), 13);
        for cell in &plan.cells[..12] {
            assert!((pt(cell.width) - 177.165).abs() < 1e-2);
        }
        assert!((plan.cells[12].width - 250.0).abs() < 1e-4);
        assert!((plan.cells[1].x - plan.cells[0].x - 62.5).abs() < 1e-4);
        // The grid fits the landscape page.
        let (left, bottom, width, height) = plan.grid_box;
        assert!(left >= 10.0 && left + width <= LANDSCAPE_W - 10.0);
        assert!(bottom >= 15.0 && bottom + height <= LANDSCAPE_H - 40.0);
    }

    #[test]
    fn the_leads_are_in_the_standard_layout_with_labels_clear_of_the_pulse() {
        let plan = plan(&twelve(), 1);

        let rows: Vec<Vec<&str>> = plan.cells[..12]
            .chunks(4)
            .map(|row| row.iter().map(|c| c.lead.as_str()).collect())
            .collect();
        assert_eq!(
            rows,
            [
                ["I", "aVR", "V1", "V4"],
                ["II", "aVL", "V2", "V5"],
                ["III", "aVF", "V3", "V6"],
            ]
        );
        assert_eq!(plan.cells[12].lead, "II");
        assert_eq!(plan.cells[12].channel, Some(1));
        assert_eq!((plan.cells[5].from_s, plan.cells[5].to_s), (2.5, 5.0));
        // Each name lies right of its row's pulse (past its falling edge) and above its top.
        for cell in &plan.cells {
            let row = plan
                .pulses
                .iter()
                .find(|p| p[0].1 > cell.bottom && p[0].1 < cell.bottom + 30.0)
                .unwrap();
            let top = row.iter().map(|&(_, y)| y).fold(f32::MIN, f32::max);
            let fall = row[4].0;
            assert!(cell.label.0 > fall + 1.0, "{}", cell.lead);
            assert!(cell.label.1 > top + 2.0, "{}", cell.lead);
        }
    }

    #[test]
    fn a_six_lead_record_leaves_the_chest_leads_blank() {
        let names: Vec<String> = ["EKG I", "EKG II", "EKG III", "aVR", "aVL", "aVF"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        assert!(applies(&names));
        assert!(!applies(&["II".to_owned()]));

        let plan = plan(&names, 1);

        let drawn: Vec<&str> = plan
            .cells
            .iter()
            .filter(|c| c.channel.is_some())
            .map(|c| c.lead.as_str())
            .collect();
        assert_eq!(drawn, ["I", "aVR", "II", "aVL", "III", "aVF", "II"]);
        assert!(plan
            .cells
            .iter()
            .any(|c| c.lead == "V1" && c.channel.is_none()));
    }
}
