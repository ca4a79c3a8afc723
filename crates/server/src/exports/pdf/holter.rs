//! The summary of a long ECG read whole (a result whose `details` list `episodes`): how much was
//! analysed, the AF burden, the episodes table (in time order, at most [`MAX_ROWS`] rows then
//! "… and N more"), the heart rate's minimum, mean and maximum with their times and its trend over
//! the whole record (median per minute, from the recording's beats), and the strips of the
//! longest AF episode, of the fastest SVT or VT run and of the longest pause on standard paper.
//! When the result classed every beat (`beat_counts`, `ectopy`:
//! `cardio_models::ecg_rhythm::holter::classes`), a beats table gives the N, S and V counts with
//! their share of the beats, and an ectopy table the isolated beats, couplets, runs, bigeminy and
//! trigeminy. When the result gives them
//! (`heart_rate_summary`, `hrv`, `hourly`: `cardio_models::ecg_rhythm::holter::trend`), the heart
//! rate and the 5-min HRV (SDNN, SDANN, SDNN index, RMSSD, pNN50; Task Force 1996) are a table in
//! place of the heart-rate line, and the hours of the record a second table; their words are
//! [`Words`], by the report's language.

use cardio_models::catalogue::Language;
use cardio_models::waveform::Waveform;
use serde_json::Value;

use super::layout::{ink, muted, rgb, Face, Writer, MARGIN, PAGE_W};
use super::strings::Strings;
use super::{numbers::percent, paper};

/// Most episodes listed; the others are counted on one line.
pub const MAX_ROWS: usize = 30;

/// Width of a heart-rate bin, seconds.
pub const BIN_S: f64 = 60.0;

/// Fewest RR intervals a bin needs for its median rate.
const MIN_BIN_RR: usize = 10;

/// Seconds of a strip.
const STRIP_S: f64 = 10.0;

/// Episode codes in the order of `Strings::episode_kinds`.
const KINDS: [&str; 8] = [
    "af",
    "flutter",
    "svt_run",
    "vt_run",
    "pause",
    "tachycardia",
    "bradycardia",
    "noisy",
];

/// One episode of the result, seconds from the record's start.
#[derive(Debug, Clone, PartialEq)]
pub struct Episode {
    /// Its code (`af`, `pause`, ...).
    pub kind: String,
    /// Start, s.
    pub start_s: f64,
    /// End, s.
    pub end_s: f64,
}

impl Episode {
    fn duration_s(&self) -> f64 {
        (self.end_s - self.start_s).max(0.0)
    }
}

/// The episodes of a result in time order; `None` when its details have no `episodes` (a record
/// read in one piece).
pub fn episodes(details: &Value) -> Option<Vec<Episode>> {
    let list = details.get("episodes")?.as_array()?;
    let mut out: Vec<Episode> = list
        .iter()
        .filter_map(|e| {
            Some(Episode {
                kind: e.get("kind")?.as_str()?.to_owned(),
                start_s: e.get("start_s")?.as_f64()?,
                end_s: e.get("end_s")?.as_f64()?,
            })
        })
        .collect();
    out.sort_by(|a, b| a.start_s.total_cmp(&b.start_s));
    Some(out)
}

/// Seconds from the record's start as `h:mm:ss` (rounded to the second).
pub fn hms(seconds: f64) -> String {
    let total = seconds.max(0.0).round() as u64;
    format!("{}:{:02}:{:02}", total / 3600, total / 60 % 60, total % 60)
}

/// A duration in words: "30 min 5 s", "1 h 2 min", "45 s"; under 10 s with one decimal ("2.4 s").
pub fn duration(seconds: f64) -> String {
    let seconds = seconds.max(0.0);
    if seconds < 10.0 {
        let text = format!("{seconds:.1}");
        return format!("{} s", text.strip_suffix(".0").unwrap_or(&text));
    }
    let total = seconds.round() as u64;
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(format!("{h} h"));
    }
    if m > 0 {
        parts.push(format!("{m} min"));
    }
    if s > 0 {
        parts.push(format!("{s} s"));
    }
    parts.join(" ")
}

/// An episode kind in words (its code for a kind the table does not know).
pub fn kind_name(s: &Strings, code: &str) -> String {
    KINDS
        .iter()
        .position(|k| *k == code)
        .map_or_else(|| code.to_owned(), |i| s.episode_kinds[i].to_owned())
}

/// What the summary says, before it is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// "Recording: ... analysed, ... too noisy" and "AF burden: ...".
    pub lines: Vec<String>,
    /// Kind, start, end and duration of the listed episodes.
    pub rows: Vec<[String; 4]>,
    /// "… and N more", when episodes were left out; the "no episode" sentence when there are none.
    pub note: Option<String>,
}

/// The summary of a result's details; `None` when they have no `episodes`.
pub fn summary(s: &Strings, details: &Value) -> Option<Summary> {
    let list = episodes(details)?;
    let number = |key: &str| details.get(key).and_then(Value::as_f64);
    let mut lines = Vec::new();
    if let Some(analysed) = number("analysed_s") {
        lines.push(
            s.holter_recording
                .replace("{analysed}", &duration(analysed))
                .replace("{noisy}", &duration(number("noisy_s").unwrap_or(0.0))),
        );
    }
    if let Some(burden) = number("af_burden") {
        // A burden stored as -0 prints as 0.0%.
        let burden = if burden > 0.0 { burden } else { 0.0 };
        lines.push(s.af_burden.replace("{percent}", &percent(burden)));
    }
    let rows = list
        .iter()
        .take(MAX_ROWS)
        .map(|e| {
            [
                kind_name(s, &e.kind),
                hms(e.start_s),
                hms(e.end_s),
                duration(e.duration_s()),
            ]
        })
        .collect();
    let note = if list.is_empty() {
        Some(s.no_episodes.to_owned())
    } else {
        (list.len() > MAX_ROWS).then(|| {
            s.more_episodes
                .replace("{n}", &(list.len() - MAX_ROWS).to_string())
        })
    };
    Some(Summary { lines, rows, note })
}

/// The median heart rate per bin of [`BIN_S`], as `(bin start s, bpm)`, from the beat times of
/// the whole record; RR intervals that start in a too-noisy episode are left out, and so is a bin
/// with fewer than 10 of them.
pub fn rate_bins(beats_s: &[f64], noisy: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut bins: Vec<(f64, Vec<f64>)> = Vec::new();
    for pair in beats_s.windows(2) {
        let rr = pair[1] - pair[0];
        if rr <= 0.0 || noisy.iter().any(|&(a, b)| pair[0] >= a && pair[0] < b) {
            continue;
        }
        let start = (pair[0] / BIN_S).floor() * BIN_S;
        match bins.last_mut() {
            Some((t, rrs)) if *t == start => rrs.push(rr),
            _ => bins.push((start, vec![rr])),
        }
    }
    bins.into_iter()
        .filter(|(_, rrs)| rrs.len() >= MIN_BIN_RR)
        .map(|(t, mut rrs)| {
            rrs.sort_by(f64::total_cmp);
            (t, 60.0 / rrs[rrs.len() / 2])
        })
        .collect()
}

/// "Heart rate: minimum ... at ..., mean ..., maximum ... at ..." from the bins (the mean of the
/// per-minute medians); `None` without bins.
pub fn rate_line(s: &Strings, bins: &[(f64, f64)]) -> Option<String> {
    let min = bins.iter().min_by(|a, b| a.1.total_cmp(&b.1))?;
    let max = bins.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let mean = bins.iter().map(|b| b.1).sum::<f64>() / bins.len() as f64;
    let bpm = |v: f64| format!("{v:.0} bpm");
    Some(
        s.holter_rate
            .replace("{min}", &bpm(min.1))
            .replace("{min_at}", &hms(min.0))
            .replace("{mean}", &bpm(mean))
            .replace("{max}", &bpm(max.1))
            .replace("{max_at}", &hms(max.0)),
    )
}

/// The words of the heart-rate and HRV tables, in one language.
#[derive(Debug)]
pub struct Words {
    /// Heading of the heart-rate and HRV table.
    pub hrv_heading: &'static str,
    /// Its columns: figure, value, time.
    pub hrv_columns: [&'static str; 3],
    /// Minimum, mean and maximum heart rate.
    pub rates: [&'static str; 3],
    /// "SDNN index".
    pub sdnn_index: &'static str,
    /// How the figures were measured, with `{n}` 5-min segments.
    pub hrv_note: &'static str,
    /// Heading of the hourly table.
    pub hourly_heading: &'static str,
    /// Its columns: hour, beats, mean, minimum and maximum bpm.
    pub hourly_columns: [&'static str; 5],
    /// Heading of the beats table.
    pub beats_heading: &'static str,
    /// Its columns: class, beats, share of the beats.
    pub beats_columns: [&'static str; 3],
    /// The classes N, S and V.
    pub beat_classes: [&'static str; 3],
    /// Heading of the ectopy table.
    pub ectopy_heading: &'static str,
    /// Its columns: pattern, supraventricular, ventricular.
    pub ectopy_columns: [&'static str; 3],
    /// Isolated beats, couplets, runs of 3 or more, bigeminy, trigeminy.
    pub patterns: [&'static str; 5],
    /// Caption of the fastest run's strip, with `{kind}`, `{rate}` and `{at}`.
    pub run_strip: &'static str,
    /// Caption of the fastest run's strip when its rate is unknown, with `{kind}` and `{at}`.
    pub run_strip_no_rate: &'static str,
}

const WORDS_EN: Words = Words {
    hrv_heading: "Heart rate and HRV",
    hrv_columns: ["Figure", "Value", "At"],
    rates: [
        "Minimum heart rate",
        "Mean heart rate",
        "Maximum heart rate",
    ],
    sdnn_index: "SDNN index",
    hrv_note: "Minimum and maximum: the slowest and fastest minute (median RR). HRV from {n} \
               5-min segments (Task Force of the ESC and NASPE, 1996).",
    hourly_heading: "Hour by hour",
    hourly_columns: ["Hour", "Beats", "Mean bpm", "Min bpm", "Max bpm"],
    beats_heading: "Beats",
    beats_columns: ["Class", "Beats", "Of all beats"],
    beat_classes: [
        "N normal",
        "S supraventricular ectopic",
        "V ventricular ectopic",
    ],
    ectopy_heading: "Ectopy",
    ectopy_columns: ["Pattern", "Supraventricular", "Ventricular"],
    patterns: [
        "Isolated",
        "Couplets",
        "Runs (3 beats or more)",
        "Bigeminy",
        "Trigeminy",
    ],
    run_strip: "Fastest run ({kind}, {rate} bpm) at {at} ·",
    run_strip_no_rate: "Fastest run ({kind}) at {at} ·",
};

const WORDS_ES: Words = Words {
    hrv_heading: "Frecuencia cardiaca y VFC",
    hrv_columns: ["Medida", "Valor", "A las"],
    rates: [
        "Frecuencia cardiaca mínima",
        "Frecuencia cardiaca media",
        "Frecuencia cardiaca máxima",
    ],
    sdnn_index: "Índice SDNN",
    hrv_note: "Mínima y máxima: el minuto más lento y el más rápido (RR mediano). VFC de {n} \
               segmentos de 5 min (Task Force de la ESC y la NASPE, 1996).",
    hourly_heading: "Hora a hora",
    hourly_columns: ["Hora", "Latidos", "Media lpm", "Mín. lpm", "Máx. lpm"],
    beats_heading: "Latidos",
    beats_columns: ["Clase", "Latidos", "Del total"],
    beat_classes: [
        "N normales",
        "S ectópicos supraventriculares",
        "V ectópicos ventriculares",
    ],
    ectopy_heading: "Ectopia",
    ectopy_columns: ["Patrón", "Supraventricular", "Ventricular"],
    patterns: [
        "Aislados",
        "Parejas",
        "Rachas (3 latidos o más)",
        "Bigeminismo",
        "Trigeminismo",
    ],
    run_strip: "Racha más rápida ({kind}, {rate} lpm) a las {at} ·",
    run_strip_no_rate: "Racha más rápida ({kind}) a las {at} ·",
};

const WORDS_FR: Words = Words {
    hrv_heading: "Fréquence cardiaque et VFC",
    hrv_columns: ["Mesure", "Valeur", "À"],
    rates: [
        "Fréquence cardiaque minimale",
        "Fréquence cardiaque moyenne",
        "Fréquence cardiaque maximale",
    ],
    sdnn_index: "Index SDNN",
    hrv_note: "Minimum et maximum : la minute la plus lente et la plus rapide (RR médian). VFC \
               sur {n} segments de 5 min (Task Force de l'ESC et de la NASPE, 1996).",
    hourly_heading: "Heure par heure",
    hourly_columns: ["Heure", "Battements", "Moy. bpm", "Min. bpm", "Max. bpm"],
    beats_heading: "Battements",
    beats_columns: ["Classe", "Battements", "Du total"],
    beat_classes: [
        "N normaux",
        "S ectopiques supraventriculaires",
        "V ectopiques ventriculaires",
    ],
    ectopy_heading: "Ectopie",
    ectopy_columns: ["Motif", "Supraventriculaire", "Ventriculaire"],
    patterns: [
        "Isolées",
        "Doublets",
        "Salves (3 battements ou plus)",
        "Bigéminisme",
        "Trigéminisme",
    ],
    run_strip: "Salve la plus rapide ({kind}, {rate} bpm) à {at} ·",
    run_strip_no_rate: "Salve la plus rapide ({kind}) à {at} ·",
};

/// The words of the report's language.
pub fn words(s: &Strings) -> &'static Words {
    match s.catalogue {
        Language::En => &WORDS_EN,
        Language::Es => &WORDS_ES,
        Language::Fr => &WORDS_FR,
    }
}

/// A number of `decimals` followed by `unit`, or "—" when the value is missing.
fn figure(value: Option<&Value>, decimals: usize, unit: &str) -> String {
    value
        .and_then(Value::as_f64)
        .map_or_else(|| "—".to_owned(), |v| format!("{v:.decimals$}{unit}"))
}

/// The rows of the heart-rate and HRV table (figure, value, time) and its note; `None` when the
/// details give neither `heart_rate_summary` nor `hrv`.
pub fn hrv_rows(s: &Strings, details: &Value) -> Option<(Vec<Vec<String>>, Option<String>)> {
    let w = words(s);
    let mut rows = Vec::new();
    if let Some(hr) = details.get("heart_rate_summary").filter(|v| v.is_object()) {
        let at = |key: &str| {
            hr.get(key)
                .and_then(Value::as_f64)
                .map_or(String::new(), hms)
        };
        for (name, key, time) in [
            (w.rates[0], "min_bpm", at("min_at_s")),
            (w.rates[1], "mean_bpm", String::new()),
            (w.rates[2], "max_bpm", at("max_at_s")),
        ] {
            rows.push(vec![name.to_owned(), figure(hr.get(key), 0, " bpm"), time]);
        }
    }
    let hrv = details.get("hrv").filter(|v| v.is_object());
    if let Some(hrv) = hrv {
        let pnn50 = hrv
            .get("pnn50_percent")
            .and_then(Value::as_f64)
            .map_or_else(|| "—".to_owned(), |v| percent(v / 100.0));
        for (name, value) in [
            ("SDNN", figure(hrv.get("sdnn_ms"), 1, " ms")),
            ("SDANN", figure(hrv.get("sdann_ms"), 1, " ms")),
            (w.sdnn_index, figure(hrv.get("sdnn_index_ms"), 1, " ms")),
            ("RMSSD", figure(hrv.get("rmssd_ms"), 1, " ms")),
            ("pNN50", pnn50),
        ] {
            rows.push(vec![name.to_owned(), value, String::new()]);
        }
    }
    let note = hrv
        .and_then(|h| h.get("segments"))
        .and_then(Value::as_u64)
        .map(|n| w.hrv_note.replace("{n}", &n.to_string()));
    (!rows.is_empty()).then_some((rows, note))
}

/// The rows of the hourly table (hour, beats, mean, minimum and maximum bpm).
pub fn hourly_rows(details: &Value) -> Vec<Vec<String>> {
    let Some(list) = details.get("hourly").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|h| {
            let (start, end) = (h.get("start_s")?.as_f64()?, h.get("end_s")?.as_f64()?);
            Some(vec![
                format!("{} – {}", hms(start), hms(end)),
                figure(h.get("beats"), 0, ""),
                figure(h.get("mean_bpm"), 0, ""),
                figure(h.get("min_bpm"), 0, ""),
                figure(h.get("max_bpm"), 0, ""),
            ])
        })
        .collect()
}

/// The rows of the beats table (class, beats, share of all beats); `None` when the details have
/// no `beat_counts` (a result that did not class its beats).
pub fn beat_rows(s: &Strings, details: &Value) -> Option<Vec<Vec<String>>> {
    let counts = details.get("beat_counts").filter(|v| v.is_object())?;
    let values: Vec<Option<u64>> = ["n", "s", "v"]
        .iter()
        .map(|k| counts.get(*k).and_then(Value::as_u64))
        .collect();
    let total: u64 = values.iter().flatten().sum();
    let w = words(s);
    Some(
        w.beat_classes
            .iter()
            .zip(&values)
            .map(|(name, value)| {
                let share = value
                    .filter(|_| total > 0)
                    .map_or_else(|| "—".to_owned(), |v| percent(v as f64 / total as f64));
                let count = value.map_or_else(|| "—".to_owned(), |v| v.to_string());
                vec![(*name).to_owned(), count, share]
            })
            .collect(),
    )
}

/// The rows of the ectopy table (pattern, supraventricular, ventricular): isolated beats,
/// couplets, runs, bigeminy and trigeminy, "—" where the result gives no count; `None` when the
/// details have no `ectopy`.
pub fn ectopy_rows(s: &Strings, details: &Value) -> Option<Vec<Vec<String>>> {
    let ectopy = details.get("ectopy").filter(|v| v.is_object())?;
    let count = |key: &str| {
        ectopy
            .get(key)
            .and_then(Value::as_u64)
            .map_or_else(|| "—".to_owned(), |v| v.to_string())
    };
    let w = words(s);
    Some(
        w.patterns
            .iter()
            .zip(["isolated", "couplets", "runs", "bigeminy", "trigeminy"])
            .map(|(name, key)| {
                vec![
                    (*name).to_owned(),
                    count(&format!("s_{key}")),
                    count(&format!("v_{key}")),
                ]
            })
            .collect(),
    )
}

/// Where the fastest SVT or VT run's strip starts (5 s before its middle, never before the
/// record's start), the run, and its rate in bpm from the beats `beats_s` inside it (`None` when
/// fewer than two are); runs of unknown rate rank after those of known rate, longest first.
pub fn fastest_run<'a>(
    list: &'a [Episode],
    beats_s: &[f64],
) -> Option<(f64, &'a Episode, Option<f64>)> {
    let rate = |e: &Episode| {
        let inside: Vec<f64> = beats_s
            .iter()
            .copied()
            .filter(|t| *t >= e.start_s - 0.01 && *t <= e.end_s + 0.01)
            .collect();
        let span = inside.last()? - inside.first()?;
        (inside.len() >= 2 && span > 0.0).then(|| 60.0 * (inside.len() - 1) as f64 / span)
    };
    list.iter()
        .filter(|e| e.kind == "vt_run" || e.kind == "svt_run")
        .map(|e| (e, rate(e)))
        .max_by(|(a, ra), (b, rb)| match (ra, rb) {
            (Some(x), Some(y)) => x.total_cmp(y),
            (Some(_), None) => std::cmp::Ordering::Greater,
            (None, Some(_)) => std::cmp::Ordering::Less,
            (None, None) => a.duration_s().total_cmp(&b.duration_s()),
        })
        .map(|(e, bpm)| {
            let middle = f64::midpoint(e.start_s, e.end_s);
            ((middle - STRIP_S / 2.0).max(0.0), e, bpm)
        })
}

/// The longest episode of `kind`.
fn longest<'a>(list: &'a [Episode], kind: &str) -> Option<&'a Episode> {
    list.iter()
        .filter(|e| e.kind == kind)
        .max_by(|a, b| a.duration_s().total_cmp(&b.duration_s()))
}

/// Where the strips start: the longest AF episode's start, and 5 s before the middle of the
/// longest pause (never before the record's start).
pub fn strip_starts(list: &[Episode]) -> (Option<f64>, Option<(f64, &Episode)>) {
    let af = longest(list, "af").map(|e| e.start_s);
    let pause = longest(list, "pause").map(|e| {
        let middle = f64::midpoint(e.start_s, e.end_s);
        ((middle - STRIP_S / 2.0).max(0.0), e)
    });
    (af, pause)
}

/// Height of the trend plot, mm.
const PLOT_H: f32 = 40.0;

/// The heart-rate trend over the whole record: one polyline of the per-minute medians (broken
/// where bins are missing), bpm gridlines every 20 (the caption names the unit) and time ticks in
/// `h:mm:ss`.
fn trend(out: &mut Writer, s: &Strings, bins: &[(f64, f64)], duration_s: f64) {
    let left = MARGIN + 10.0;
    let width = PAGE_W - MARGIN - left;
    out.ensure(PLOT_H + 20.0);
    out.advance(5.0);
    out.text_at(s.rate_trend, MARGIN, out.y(), 8.0, Face::Regular, muted());
    let top = out.y() - 3.0;
    let bottom = top - PLOT_H;
    let lo = (bins.iter().map(|b| b.1).fold(f64::MAX, f64::min) / 20.0).floor() * 20.0;
    let hi = (bins.iter().map(|b| b.1).fold(0.0, f64::max) / 20.0).ceil() * 20.0;
    let hi = if hi <= lo { lo + 20.0 } else { hi };
    let span = duration_s.max(BIN_S);
    let at_time = |t: f64| left + (t / span) as f32 * width;
    let at_rate = |bpm: f64| bottom + ((bpm - lo) / (hi - lo)) as f32 * PLOT_H;
    out.fill_rect(left, bottom, width, PLOT_H, rgb(247, 249, 252));
    let light = rgb(215, 222, 232);
    let mut bpm = lo;
    while bpm <= hi {
        out.stroke(
            &[(left, at_rate(bpm)), (left + width, at_rate(bpm))],
            0.2,
            &light,
        );
        out.text_at(
            &format!("{bpm:.0}"),
            MARGIN + 1.0,
            at_rate(bpm) - 1.0,
            6.0,
            Face::Regular,
            muted(),
        );
        bpm += 20.0;
    }
    let ticks = 6;
    for i in 0..=ticks {
        let t = span * f64::from(i) / f64::from(ticks);
        out.stroke(
            &[(at_time(t), bottom), (at_time(t), bottom - 1.0)],
            0.3,
            &muted(),
        );
        let label = hms(t);
        let w = out.width(&label, 6.0, Face::Regular);
        out.text_at(
            &label,
            (at_time(t) - w / 2.0).min(PAGE_W - MARGIN - w),
            bottom - 3.5,
            6.0,
            Face::Regular,
            muted(),
        );
    }
    let color = rgb(150, 20, 40);
    let mut run: Vec<(f32, f32)> = Vec::new();
    let mut last: Option<f64> = None;
    for &(t, bpm) in bins {
        if last.is_some_and(|l| t - l > BIN_S + 1e-6) {
            out.stroke(&run, 0.6, &color);
            run.clear();
        }
        run.push((at_time(t + BIN_S / 2.0), at_rate(bpm)));
        last = Some(t);
    }
    if run.len() == 1 {
        let (px, py) = run[0];
        out.stroke(&[(px - 0.5, py), (px + 0.5, py)], 0.6, &color);
    }
    out.stroke(&run, 0.6, &color);
    out.advance(PLOT_H + 10.0);
    let axis = s.time_from_start;
    let w = out.width(axis, 6.5, Face::Regular);
    out.text_at(
        axis,
        left + (width - w) / 2.0,
        out.y(),
        6.5,
        Face::Regular,
        muted(),
    );
    out.advance(3.0);
}

/// Draws a table: its header in bold, then its rows, each column from its `columns` x (mm).
fn table<R: AsRef<[String]>>(out: &mut Writer, columns: &[f32], header: &[&str], rows: &[R]) {
    let size = 8.5;
    let height = Writer::line_height(size);
    out.ensure(height * 3.0);
    out.advance(height);
    for (x, label) in columns.iter().zip(header) {
        out.text_at(
            label,
            *x,
            out.y() + height * 0.25,
            size,
            Face::Bold,
            muted(),
        );
    }
    for row in rows {
        out.ensure(height);
        out.advance(height);
        for (x, text) in columns.iter().zip(row.as_ref()) {
            out.text_at(
                text,
                *x,
                out.y() + height * 0.25,
                size,
                Face::Regular,
                ink(),
            );
        }
    }
}

/// The summary of a long recording with its plot and strips, when `details` list episodes.
/// `signal` is the record's first window (its `beats_s` cover the whole record); `window` reads
/// 10 s of the record from a start time.
pub fn write(
    out: &mut Writer,
    s: &Strings,
    details: &Value,
    signal: Option<&Waveform>,
    window: impl Fn(f64) -> Option<Waveform>,
) {
    let Some(found) = summary(s, details) else {
        return;
    };
    let list = episodes(details).unwrap_or_default();
    out.heading(s.holter_heading, 25.0);
    for line in &found.lines {
        out.paragraph(line, MARGIN, 9.0, Face::Regular, &ink());
    }
    let noisy: Vec<(f64, f64)> = list
        .iter()
        .filter(|e| e.kind == "noisy")
        .map(|e| (e.start_s, e.end_s))
        .collect();
    let bins = signal
        .map(|w| rate_bins(&w.beats_s, &noisy))
        .unwrap_or_default();
    let w = words(s);
    let hrv = hrv_rows(s, details);
    if let Some((rows, note)) = &hrv {
        out.subheading(w.hrv_heading, 10.0);
        table(
            out,
            &[MARGIN, MARGIN + 62.0, MARGIN + 86.0],
            &w.hrv_columns,
            rows,
        );
        if let Some(note) = note {
            out.advance(1.0);
            out.paragraph(note, MARGIN, 8.0, Face::Regular, &muted());
        }
    } else if let Some(line) = rate_line(s, &bins) {
        out.paragraph(&line, MARGIN, 9.0, Face::Regular, &ink());
    }
    if !found.rows.is_empty() {
        let columns = [MARGIN, MARGIN + 62.0, MARGIN + 86.0, MARGIN + 110.0];
        out.subheading(s.episodes_heading, 10.0);
        table(out, &columns, &s.episode_columns, &found.rows);
    }
    if let Some(note) = &found.note {
        out.advance(1.0);
        out.paragraph(note, MARGIN, 9.0, Face::Regular, &ink());
    }
    let hours = hourly_rows(details);
    if !hours.is_empty() {
        let columns = [
            MARGIN,
            MARGIN + 40.0,
            MARGIN + 62.0,
            MARGIN + 86.0,
            MARGIN + 110.0,
        ];
        out.subheading(w.hourly_heading, 10.0);
        table(out, &columns, &w.hourly_columns, &hours);
    }
    if let Some(rows) = beat_rows(s, details) {
        out.subheading(w.beats_heading, 10.0);
        table(
            out,
            &[MARGIN, MARGIN + 62.0, MARGIN + 86.0],
            &w.beats_columns,
            &rows,
        );
    }
    if let Some(rows) = ectopy_rows(s, details) {
        out.subheading(w.ectopy_heading, 10.0);
        table(
            out,
            &[MARGIN, MARGIN + 62.0, MARGIN + 100.0],
            &w.ectopy_columns,
            &rows,
        );
    }
    if !bins.is_empty() {
        let duration_s = signal.map_or(0.0, |w| w.duration_s);
        trend(out, s, &bins, duration_s);
    }
    let (af, pause) = strip_starts(&list);
    if let Some(w) = af.and_then(|start| window(start).map(|w| (start, w))) {
        let (start, w) = w;
        let caption = format!(
            "{} {}",
            s.af_strip.replace("{at}", &hms(start)),
            s.ecg_strip
        );
        paper::ecg(out, &w, &caption, s.calibration);
    }
    let beats: &[f64] = signal.map_or(&[], |w| &w.beats_s);
    if let Some((start, e, bpm)) = fastest_run(&list, beats) {
        if let Some(strip) = window(start) {
            let kind = kind_name(s, &e.kind);
            let at = hms(e.start_s);
            let caption = bpm.map_or_else(
                || {
                    w.run_strip_no_rate
                        .replace("{kind}", &kind)
                        .replace("{at}", &at)
                },
                |bpm| {
                    w.run_strip
                        .replace("{kind}", &kind)
                        .replace("{rate}", &format!("{bpm:.0}"))
                        .replace("{at}", &at)
                },
            );
            let caption = format!("{caption} {}", s.ecg_strip);
            paper::ecg(out, &strip, &caption, s.calibration);
        }
    }
    if let Some((start, e)) = pause {
        if let Some(w) = window(start) {
            let caption = format!(
                "{} {}",
                s.pause_strip
                    .replace("{duration}", &duration(e.duration_s()))
                    .replace("{at}", &hms(e.start_s)),
                s.ecg_strip
            );
            paper::ecg(out, &w, &caption, s.calibration);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::accounts::settings::Language;
    use crate::exports::pdf::strings;

    fn details(n: usize) -> Value {
        let mut list: Vec<Value> = (0..n)
            .map(|i| {
                let start = 600.0 + 100.0 * i as f64;
                json!({"kind": "tachycardia", "start_s": start, "end_s": start + 30.0})
            })
            .collect();
        list.push(json!({"kind": "af", "start_s": 125.4, "end_s": 3_845.0}));
        list.push(json!({"kind": "pause", "start_s": 61.0, "end_s": 63.4}));
        json!({
            "episodes": list, "af_burden": 0.1234, "analysed_s": 1805.0, "noisy_s": 30.0,
            "window_s": 30.0, "heart_rate_bpm": 72.0,
        })
    }

    #[test]
    fn the_summary_lists_episodes_in_time_order_with_their_times() {
        let found = summary(strings::of(Language::En), &details(1)).unwrap();

        assert_eq!(
            found.lines,
            [
                "Recording: 30 min 5 s analysed, 30 s too noisy",
                "AF burden: 12.3%"
            ]
        );
        assert_eq!(
            found.rows,
            [
                ["Pause", "0:01:01", "0:01:03", "2.4 s"],
                ["Atrial fibrillation", "0:02:05", "1:04:05", "1 h 2 min"],
                ["Tachycardia", "0:10:00", "0:10:30", "30 s"],
            ]
        );
        assert_eq!(found.note, None);
    }

    #[test]
    fn more_than_thirty_episodes_end_with_how_many_were_left_out() {
        let found = summary(strings::of(Language::En), &details(40)).unwrap();

        assert_eq!(found.rows.len(), MAX_ROWS);
        assert_eq!(found.note.as_deref(), Some("… and 12 more"));
        let es = summary(strings::of(Language::Es), &details(40)).unwrap();
        assert_eq!(es.note.as_deref(), Some("… y 12 más"));
        assert_eq!(es.rows[0][0], "Pausa");
    }

    #[test]
    fn no_episode_says_so_and_a_short_record_has_no_summary() {
        let details =
            json!({"episodes": [], "af_burden": -0.0, "analysed_s": 180.0, "noisy_s": 0.0});
        let found = summary(strings::of(Language::En), &details).unwrap();
        assert_eq!(
            found.lines,
            [
                "Recording: 3 min analysed, 0 s too noisy",
                "AF burden: 0.0%"
            ]
        );
        assert!(found.rows.is_empty());
        assert_eq!(
            found.note.as_deref(),
            Some("No episode was found in the recording.")
        );
        assert_eq!(summary(&strings::EN, &json!({"heart_rate_bpm": 70})), None);
    }

    #[test]
    fn times_and_durations_are_written_as_on_a_holter_report() {
        assert_eq!(hms(0.0), "0:00:00");
        assert_eq!(hms(3_725.6), "1:02:06");
        assert_eq!(duration(2.0), "2 s");
        assert_eq!(duration(45.2), "45 s");
        assert_eq!(duration(3_600.0), "1 h");
        assert_eq!(kind_name(&strings::FR, "vt_run"), "Salve de TV");
        assert_eq!(kind_name(&strings::EN, "unknown"), "unknown");
    }

    #[test]
    fn the_heart_rate_is_the_median_per_minute_with_its_times() {
        // 60 bpm for two minutes, then 120 bpm for a minute; the third minute is too noisy.
        let mut beats: Vec<f64> = (0..120).map(f64::from).collect();
        beats.extend((0..120).map(|i| 120.0 + f64::from(i) * 0.5));
        beats.extend((0..60).map(|i| 180.0 + f64::from(i)));
        let bins = rate_bins(&beats, &[(180.0, 240.0)]);
        assert_eq!(bins, [(0.0, 60.0), (60.0, 60.0), (120.0, 120.0)]);
        assert_eq!(
            rate_line(&strings::EN, &bins).unwrap(),
            "Heart rate: minimum 60 bpm at 0:00:00, mean 80 bpm, maximum 120 bpm at 0:02:00 \
             (median per minute)"
        );
    }

    /// A long result's details with the heart rate, HRV and hourly table (MIT-BIH 100, rounded).
    fn with_hrv() -> Value {
        let mut d = details(1);
        d["heart_rate_summary"] = json!({
            "min_bpm": 73.5, "min_at_s": 1260.0, "mean_bpm": 75.5,
            "max_bpm": 80.0, "max_at_s": 420.0,
        });
        d["hrv"] = json!({
            "sdnn_ms": 36.4, "sdann_ms": 16.5, "sdnn_index_ms": 32.2, "rmssd_ms": 28.0,
            "pnn50_percent": 6.4, "segments": 6,
        });
        d["hourly"] = json!([{
            "start_s": 0.0, "end_s": 1805.6, "beats": 2271, "mean_bpm": 75.5, "min_bpm": 73.5,
            "max_bpm": 80.0, "analysed_s": 1775.6,
        }]);
        d
    }

    #[test]
    fn the_heart_rate_and_hrv_table_gives_each_figure_with_its_time() {
        let (rows, note) = hrv_rows(&strings::EN, &with_hrv()).unwrap();

        let rows: Vec<String> = rows.iter().map(|r| r.join(" | ")).collect();
        assert_eq!(
            rows,
            [
                "Minimum heart rate | 74 bpm | 0:21:00",
                "Mean heart rate | 76 bpm | ",
                "Maximum heart rate | 80 bpm | 0:07:00",
                "SDNN | 36.4 ms | ",
                "SDANN | 16.5 ms | ",
                "SDNN index | 32.2 ms | ",
                "RMSSD | 28.0 ms | ",
                "pNN50 | 6.4% | ",
            ]
        );
        assert!(note.unwrap().contains("HRV from 6 5-min segments"));
        assert_eq!(
            hourly_rows(&with_hrv()),
            [["0:00:00 – 0:30:06", "2271", "76", "74", "80"]]
        );
        let (fr, _) = hrv_rows(&strings::FR, &with_hrv()).unwrap();
        assert_eq!(fr[5][0], "Index SDNN");
        // An older result without these details keeps the heart-rate line.
        assert_eq!(hrv_rows(&strings::EN, &details(1)), None);
        assert!(hourly_rows(&details(1)).is_empty());
        let null = json!({"heart_rate_summary": null, "hrv": {"sdnn_ms": null}});
        assert_eq!(hrv_rows(&strings::EN, &null).unwrap().0[0][1], "—");
    }

    #[test]
    fn the_drawn_summary_has_the_heart_rate_hrv_and_hourly_tables() {
        let mut out = Writer::new("test").unwrap();
        let first = waveform(0.0, 1_805.6);

        write(&mut out, &strings::EN, &with_hrv(), Some(&first), |start| {
            Some(waveform(start, 1_805.6))
        });

        let bytes = out
            .finish("Cardio", |n, total| format!("Page {n} of {total}"))
            .unwrap();
        let text = pdf_extract::extract_text_from_mem(&bytes).unwrap();
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for expected in [
            "Heart rate and HRV",
            "Figure Value At",
            "Minimum heart rate 74 bpm 0:21:00",
            "SDNN 36.4 ms",
            "SDANN 16.5 ms",
            "SDNN index 32.2 ms",
            "RMSSD 28.0 ms",
            "pNN50 6.4%",
            "Task Force of the ESC and NASPE",
            "Hour by hour",
            "Hour Beats Mean bpm Min bpm Max bpm",
            "0:00:00 – 0:30:06 2271 76 74 80",
        ] {
            assert!(text.contains(expected), "{expected:?} not in {text}");
        }
        // The table replaces the heart-rate line.
        assert!(!text.contains("Heart rate: minimum"), "{text}");
    }

    #[test]
    fn the_strips_start_at_the_longest_af_and_around_the_longest_pause() {
        let list = episodes(&details(1)).unwrap();
        let (af, pause) = strip_starts(&list);
        assert_eq!(af, Some(125.4));
        let (start, e) = pause.unwrap();
        assert!((start - 57.2).abs() < 1e-9, "{start}");
        assert_eq!(e.start_s, 61.0);
    }

    /// 10 s of a 72-bpm trace at 250 Hz from `start`, in a record of `duration` s.
    fn waveform(start: f64, duration: f64) -> Waveform {
        let beats: Vec<f64> = (0..(duration / 0.83) as usize)
            .map(|i| i as f64 * 0.83)
            .collect();
        let samples = (0..2500)
            .map(|i| {
                let d = ((start + f64::from(i) / 250.0) % 0.83) - 0.4;
                Some((1.2 * (-(d * d) / 1.5e-4).exp()) as f32)
            })
            .collect();
        Waveform {
            kind: cardio_models::analysis::Kind::Ecg,
            sampling_rate_hz: 250.0,
            source_rate_hz: 250.0,
            duration_s: duration,
            start_s: start,
            end_s: start + 10.0,
            channels: vec![cardio_models::waveform::WaveformChannel {
                name: "II".into(),
                unit: "mV".into(),
                samples,
            }],
            analysed_channel: 0,
            beats_s: beats,
            s1_s: Vec::new(),
            s2_s: Vec::new(),
            marks_note: None,
        }
    }

    #[test]
    fn the_drawn_summary_has_its_table_trend_and_strips() {
        let mut out = Writer::new("test").unwrap();
        let first = waveform(0.0, 3_900.0);

        write(&mut out, &strings::EN, &details(3), Some(&first), |start| {
            Some(waveform(start, 3_900.0))
        });

        let bytes = out
            .finish("Cardio", |n, total| format!("Page {n} of {total}"))
            .unwrap();
        if let Some(dir) = std::env::var_os("CARDIO_REPORT_PDF_DIR") {
            std::fs::write(std::path::Path::new(&dir).join("holter-unit.pdf"), &bytes).unwrap();
        }
        let text = pdf_extract::extract_text_from_mem(&bytes).unwrap();
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for expected in [
            "Holter summary",
            "Recording: 30 min 5 s analysed, 30 s too noisy",
            "AF burden: 12.3%",
            "Heart rate: minimum 72 bpm at ",
            "Episodes (in time order)",
            "Episode Start End Duration",
            "Atrial fibrillation 0:02:05 1:04:05 1 h 2 min",
            "Heart-rate trend (median per minute, bpm)",
            "Longest AF episode, from 0:02:05 · ECG, lead II",
            "Longest pause (2.4 s) at 0:01:01 · ECG, lead II",
        ] {
            assert!(text.contains(expected), "{expected:?} not in {text}");
        }
    }

    /// A long result's details with classed beats and two runs (the VT run the faster).
    fn with_beats() -> Value {
        let mut d = details(1);
        d["beat_counts"] = json!({"n": 2140, "s": 12, "v": 48});
        d["ectopy"] = json!({
            "v_isolated": 30, "v_couplets": 3, "v_runs": 2, "s_isolated": 9, "s_couplets": 0,
            "s_runs": 1, "v_bigeminy": 1, "v_trigeminy": 2,
        });
        let list = d["episodes"].as_array_mut().unwrap();
        list.push(json!({"kind": "svt_run", "start_s": 200.0, "end_s": 203.0}));
        list.push(json!({"kind": "vt_run", "start_s": 900.0, "end_s": 901.5}));
        d
    }

    #[test]
    fn the_beats_and_ectopy_tables_count_each_class_and_pattern() {
        let rows = beat_rows(&strings::EN, &with_beats()).unwrap();
        let rows: Vec<String> = rows.iter().map(|r| r.join(" | ")).collect();
        assert_eq!(
            rows,
            [
                "N normal | 2140 | 97.3%",
                "S supraventricular ectopic | 12 | 0.5%",
                "V ventricular ectopic | 48 | 2.2%",
            ]
        );
        let ectopy = ectopy_rows(&strings::EN, &with_beats()).unwrap();
        let ectopy: Vec<String> = ectopy.iter().map(|r| r.join(" | ")).collect();
        assert_eq!(
            ectopy,
            [
                "Isolated | 9 | 30",
                "Couplets | 0 | 3",
                "Runs (3 beats or more) | 1 | 2",
                "Bigeminy | — | 1",
                "Trigeminy | — | 2",
            ]
        );
        assert_eq!(
            beat_rows(&strings::ES, &with_beats()).unwrap()[2][0],
            "V ectópicos ventriculares"
        );
        assert_eq!(beat_rows(&strings::EN, &json!({"beat_counts": null})), None);
        assert_eq!(ectopy_rows(&strings::EN, &details(1)), None);
    }

    #[test]
    fn the_fastest_run_is_chosen_by_its_rate_and_a_vt_run_can_be_it() {
        let list = episodes(&with_beats()).unwrap();
        // 100 bpm, then three beats 0.4 s apart (150 bpm) from 900 s.
        let mut beats: Vec<f64> = (0..1000).map(|i| f64::from(i) * 0.6).collect();
        beats.retain(|t| !(899.0..902.0).contains(t));
        beats.extend([900.0, 900.4, 900.8, 901.2]);
        beats.sort_by(f64::total_cmp);

        let (start, run, bpm) = fastest_run(&list, &beats).unwrap();

        assert_eq!(run.kind, "vt_run");
        assert!((bpm.unwrap() - 150.0).abs() < 1e-6, "{bpm:?}");
        assert!((start - 895.75).abs() < 1e-9, "{start}");
        // Without beats, the longest run.
        assert_eq!(fastest_run(&list, &[]).unwrap().1.kind, "svt_run");
        assert!(fastest_run(&episodes(&details(1)).unwrap(), &beats).is_none());
    }

    #[test]
    fn the_drawn_summary_has_the_beats_and_ectopy_tables_and_the_fastest_run() {
        for (language, expected) in [
            (
                Language::En,
                [
                    "Beats",
                    "Class Beats Of all beats",
                    "N normal 2140 97.3%",
                    "V ventricular ectopic 48 2.2%",
                    "Ectopy",
                    "Pattern Supraventricular Ventricular",
                    "Couplets 0 3",
                    "Runs (3 beats or more) 1 2",
                    "Bigeminy — 1",
                    "Fastest run (",
                ],
            ),
            (
                Language::Fr,
                [
                    "Battements",
                    "Classe Battements Du total",
                    "N normaux 2140 97.3%",
                    "V ectopiques ventriculaires 48 2.2%",
                    "Ectopie",
                    "Motif Supraventriculaire Ventriculaire",
                    "Doublets 0 3",
                    "Salves (3 battements ou plus) 1 2",
                    "Bigéminisme — 1",
                    "Salve la plus rapide (",
                ],
            ),
        ] {
            let mut out = Writer::new("test").unwrap();
            let first = waveform(0.0, 3_900.0);
            write(
                &mut out,
                strings::of(language),
                &with_beats(),
                Some(&first),
                |start| Some(waveform(start, 3_900.0)),
            );
            let bytes = out
                .finish("Cardio", |n, total| format!("Page {n} of {total}"))
                .unwrap();
            let text = pdf_extract::extract_text_from_mem(&bytes).unwrap();
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            for expected in expected {
                assert!(text.contains(expected), "{expected:?} not in {text}");
            }
        }
    }
}
