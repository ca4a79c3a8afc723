//! Reading an analysis back: `GET /api/analyses/{id}` and the viewers' window of its stored
//! recording, `GET /api/analyses/{id}/waveform`, with the beats found in the whole recording;
//! owner only, audited, and the refusals for other users, clinical analyses and bad windows.

use std::fmt::Write as _;

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::{
    helpers::{clinical_form, Part, TestApp},
    predict::{csv_recording, wav_from_samples, with_echo},
};

crate::backend_tests!(
    an_ecg_analysis_is_read_back_with_a_window_and_its_r_peaks,
    a_bare_pulse_file_is_read_again_at_the_rate_it_was_sent_with,
    a_wfdb_record_is_read_again_from_its_two_blobs,
    heart_sounds_come_back_at_2_khz_with_s1_and_s2,
    another_users_clinical_or_malformed_requests_are_refused,
    simultaneous_audited_reads_of_one_analysis_all_succeed,
    a_printed_12_lead_comes_back_with_each_leads_span,
    a_twelve_lead_ecg_comes_back_with_its_fiducials_and_median_beats,
    a_single_lead_ecg_has_no_twelve_lead_marks,
    a_long_ecg_comes_back_with_the_class_of_every_beat,
);

/// 29.8 s at 250 Hz (no beat cut by the end), two leads in microvolts: lead II spikes of 1000 µV every 0.8 s from 0.4 s.
fn two_lead_csv() -> Vec<u8> {
    let mut text = String::from("time,I,II\n");
    for i in 0..7450 {
        let t = f64::from(i) / 250.0;
        let d = (t % 0.8) - 0.4;
        let spike = (-(d * d) / 2e-4).exp();
        let _ = writeln!(text, "{t:.3},{:.3},{:.3}", 500.0 * spike, 1000.0 * spike);
    }
    text.into_bytes()
}

async fn upload(app: &mut TestApp, path: &str, parts: &[Part<'_>]) -> String {
    let response = app.upload(path, parts).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    response.json()["analysis_id"].as_str().unwrap().to_owned()
}

fn times(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

/// Every time lies within `tolerance` of `first + k * period` for some whole k.
fn on_grid(times: &[f64], first: f64, period: f64, tolerance: f64) -> bool {
    times.iter().all(|t| {
        let k = ((t - first) / period).round();
        (t - first - k * period).abs() <= tolerance
    })
}

pub async fn an_ecg_analysis_is_read_back_with_a_window_and_its_r_peaks(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let id = upload(
        &mut app,
        "/api/predict/ecg/upload",
        &[Part::file("leads.csv", Some("text/csv"), two_lead_csv())],
    )
    .await;

    let response = app.get(&format!("/api/analyses/{id}")).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let analysis = response.json();
    assert_eq!(analysis["id"], id.as_str());
    assert_eq!(analysis["modality"], "ecg");
    assert_eq!(analysis["fileName"], "leads.csv");
    assert_eq!(analysis["result"]["prediction"], "Echo");

    let response = app
        .get(&format!(
            "/api/analyses/{id}/waveform?start_s=5&duration_s=4"
        ))
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let w = response.json();
    assert_eq!(w["kind"], "ecg");
    assert_eq!(w["sampling_rate_hz"], json!(250.0));
    assert_eq!(w["source_rate_hz"], json!(250.0));
    assert_eq!(w["duration_s"], json!(29.8));
    assert_eq!(
        (w["start_s"].clone(), w["end_s"].clone()),
        (json!(5.0), json!(9.0))
    );
    let channels = w["channels"].as_array().unwrap();
    assert_eq!(channels.len(), 2);
    assert_eq!(channels[1]["name"], "II");
    // No unit in a CSV header: the values are taken as millivolts, as written.
    assert_eq!(channels[1]["unit"], "mV");
    let samples = times(&channels[1]["samples"]);
    assert_eq!(samples.len(), 1000);
    // 5.2 s is a spike centre: sample (5.2 - 5.0) * 250 = 50.
    assert!((samples[50] - 1000.0).abs() < 1.0, "{}", samples[50]);
    // The echo model names no channel, so the marks are the first lead's, over the whole recording.
    assert_eq!(w["analysed_channel"], json!(0));
    let beats = times(&w["beats_s"]);
    assert_eq!(beats.len(), 37, "{beats:?}");
    assert!(on_grid(&beats, 0.4, 0.8, 0.02), "{beats:?}");
    assert_eq!(w["s1_s"], json!([]));
    assert_eq!(w["marks_note"], Value::Null);

    let actions = app.audit_actions().await;
    assert!(
        actions.ends_with(&["read analysis".into(), "read analysis_waveform".into()]),
        "{actions:?}"
    );
}

pub async fn a_bare_pulse_file_is_read_again_at_the_rate_it_was_sent_with(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    // 12 s of a 100 Hz pulse at 75 bpm as bare values: only the form gave the rate.
    let mut values = String::new();
    for i in 0..1200 {
        let t = f64::from(i) / 100.0;
        let phase = (t % 0.8) / 0.8;
        let v = (-((phase - 0.2) * (phase - 0.2)) / 0.005).exp();
        let _ = writeln!(values, "{v:.5}");
    }
    let id = upload(
        &mut app,
        "/api/predict/ppg/upload",
        &[
            Part::file("finger.txt", Some("text/plain"), values.into_bytes()),
            Part::text("sampling_rate", "100"),
        ],
    )
    .await;
    let w = app
        .get(&format!("/api/analyses/{id}/waveform"))
        .await
        .json();
    assert_eq!(w["kind"], "ppg");
    assert_eq!(w["sampling_rate_hz"], json!(100.0));
    assert_eq!(w["duration_s"], json!(12.0));
    assert_eq!(
        (w["start_s"].clone(), w["end_s"].clone()),
        (json!(0.0), json!(10.0))
    );
    assert_eq!(w["channels"][0]["samples"].as_array().unwrap().len(), 1000);
    let beats = times(&w["beats_s"]);
    assert!((14..=15).contains(&beats.len()), "{beats:?}");
    assert!(on_grid(&beats, 0.16, 0.8, 0.04), "{beats:?}");
}

pub async fn a_wfdb_record_is_read_again_from_its_two_blobs(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    // 20 s at 500 Hz, 16-bit, gain 200 adu/mV: a 1 mV spike every second.
    let n = 10_000usize;
    let signal: Vec<u8> = (0..n)
        .flat_map(|i| {
            let d = (i % 500) as f64 / 500.0 - 0.5;
            let v = (200.0 * (-(d * d) / 2e-4).exp()).round() as i16;
            v.to_le_bytes()
        })
        .collect();
    let header = format!("r 1 500 {n}\nr.dat 16 200/mV 16 0 0 0 0 II\n");
    let id = upload(
        &mut app,
        "/api/predict/ecg/upload",
        &[
            Part::file("r.hea", None, header.into_bytes()),
            Part::file("r.dat", None, signal),
        ],
    )
    .await;
    let w = app
        .get(&format!("/api/analyses/{id}/waveform?duration_s=60"))
        .await
        .json();
    // 500 Hz is kept; the whole 20 s fit in the window.
    assert_eq!(w["sampling_rate_hz"], json!(500.0));
    assert_eq!(w["end_s"], json!(20.0));
    assert_eq!(w["channels"][0]["unit"], "mV");
    let samples = times(&w["channels"][0]["samples"]);
    assert_eq!(samples.len(), n);
    assert!((samples[250] - 1.0).abs() < 1e-3, "{}", samples[250]);
    let beats = times(&w["beats_s"]);
    assert!((19..=20).contains(&beats.len()), "{beats:?}");
    assert!(on_grid(&beats, 0.5, 1.0, 0.02), "{beats:?}");
}

/// A 16-bit mono WAV at `rate`: S1 (60 Hz, 0.1 s) and S2 (80 Hz, 0.08 s) bursts every 0.8 s,
/// S2 0.3 s after S1.
pub fn heart_sound_wav(seconds: f64, rate: u32) -> Vec<u8> {
    let n = (seconds * f64::from(rate)) as u32;
    let samples: Vec<i16> = (0..n)
        .map(|i| {
            let t = f64::from(i) / f64::from(rate);
            let phase = t % 0.8;
            let burst = |start: f64, len: f64, hz: f64| {
                if (start..start + len).contains(&phase) {
                    let x = (phase - start) / len;
                    (std::f64::consts::PI * x).sin() * (2.0 * std::f64::consts::PI * hz * t).sin()
                } else {
                    0.0
                }
            };
            let v = burst(0.1, 0.1, 60.0) + 0.7 * burst(0.4, 0.08, 80.0);
            (v * 12_000.0) as i16
        })
        .collect();
    wav_from_samples(&samples, rate)
}

pub async fn heart_sounds_come_back_at_2_khz_with_s1_and_s2(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let id = upload(
        &mut app,
        "/api/predict/pcg/upload",
        &[Part::file(
            "heart.wav",
            Some("audio/wav"),
            heart_sound_wav(12.0, 8000),
        )],
    )
    .await;
    let w = app
        .get(&format!(
            "/api/analyses/{id}/waveform?start_s=2&duration_s=3"
        ))
        .await
        .json();
    assert_eq!(w["kind"], "pcg");
    assert_eq!(w["source_rate_hz"], json!(8000.0));
    assert_eq!(w["sampling_rate_hz"], json!(2000.0));
    assert_eq!(w["channels"][0]["samples"].as_array().unwrap().len(), 6000);
    let s1 = times(&w["s1_s"]);
    let s2 = times(&w["s2_s"]);
    assert!(s1.len() >= 12, "{s1:?}");
    assert!(s2.len() >= 12, "{s2:?}");
    // Each S1 falls within its burst (0.10-0.20 s of the cycle), each S2 within 0.40-0.48 s.
    assert!(on_grid(&s1, 0.15, 0.8, 0.08), "{s1:?}");
    assert!(on_grid(&s2, 0.44, 0.8, 0.08), "{s2:?}");
    assert_eq!(w["beats_s"], w["s1_s"]);
}

pub async fn another_users_clinical_or_malformed_requests_are_refused(mut app: TestApp) {
    with_echo(&mut app);
    let response = app.get("/api/analyses/nope/waveform").await;
    assert_eq!(response.status, StatusCode::UNAUTHORIZED);

    app.signed_in_doctor().await;
    let ecg = upload(
        &mut app,
        "/api/predict/ecg/upload",
        &[Part::file("leads.csv", Some("text/csv"), two_lead_csv())],
    )
    .await;
    let response = app.post("/api/predict/clinical", clinical_form()).await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let clinical = response.json()["analysis_id"].as_str().unwrap().to_owned();

    let response = app.get(&format!("/api/analyses/{clinical}/waveform")).await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    assert_eq!(response.detail(), "This analysis has no recording to show.");
    let response = app
        .get(&format!("/api/analyses/{ecg}/waveform?start_s=soon"))
        .await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(response.detail(), "start_s and duration_s must be numbers.");
    let response = app.get("/api/analyses/no-such-id").await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    assert_eq!(response.detail(), "Analysis not found.");

    // Another doctor sees neither the analysis nor its recording, as if they did not exist.
    app.logout().await;
    app.signed_in_doctor().await;
    for path in [
        format!("/api/analyses/{ecg}"),
        format!("/api/analyses/{ecg}/waveform"),
        format!("/api/analyses/{clinical}"),
    ] {
        let response = app.get(&path).await;
        assert_eq!(response.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(response.detail(), "Analysis not found.", "{path}");
    }
    assert!(!app
        .audit_actions()
        .await
        .iter()
        .any(|a| a.starts_with("read analysis")));
}

/// The analysis page asks for the analysis and its waveform at once, and each read writes an audit
/// row: on SQLite a read-then-write transaction used to fail with SQLITE_BUSY_SNAPSHOT (500) when
/// the other one wrote first.
pub async fn simultaneous_audited_reads_of_one_analysis_all_succeed(mut app: TestApp) {
    use axum::{
        body::Body,
        http::{header, Request},
    };
    use tower::ServiceExt as _;

    with_echo(&mut app);
    app.signed_in_doctor().await;
    let id = upload(
        &mut app,
        "/api/predict/ecg/upload",
        &[Part::file("leads.csv", Some("text/csv"), two_lead_csv())],
    )
    .await;
    let cookie = app.cookie.clone().unwrap();
    let mut requests = tokio::task::JoinSet::new();
    for i in 0..16 {
        let router = app.router.clone();
        let path = if i % 2 == 0 {
            format!("/api/analyses/{id}")
        } else {
            format!("/api/analyses/{id}/waveform")
        };
        let cookie = cookie.clone();
        requests.spawn(async move {
            let request = Request::builder()
                .uri(path)
                .header(header::HOST, "127.0.0.1:8080")
                .header(header::COOKIE, cookie)
                .body(Body::empty())
                .unwrap();
            router.oneshot(request).await.unwrap().status()
        });
    }
    while let Some(status) = requests.join_next().await {
        assert_eq!(status.unwrap(), StatusCode::OK);
    }
    let reads = app
        .audit_actions()
        .await
        .iter()
        .filter(|a| a.starts_with("read analysis"))
        .count();
    assert_eq!(reads, 16);
}

/// A 12-lead print (GE MUSE PDF: 3 rows of four 2.5-s pieces and three 10-s rhythm strips) comes
/// back with every lead it shows; a lead printed for 2.5 s holds values only there and nulls
/// (not zeros, not an error) elsewhere, so the viewer draws it where the page drew it.
pub async fn a_printed_12_lead_comes_back_with_each_leads_span(mut app: TestApp) {
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let Some(path) = cardio_testkit::dataset_file("ecg_documents/ge-muse-fictitious.pdf") else {
        return;
    };
    let id = upload(
        &mut app,
        "/api/predict/ecg/upload",
        &[Part::file(
            "muse.pdf",
            Some("application/pdf"),
            std::fs::read(path).unwrap(),
        )],
    )
    .await;
    let response = app
        .get(&format!(
            "/api/analyses/{id}/waveform?start_s=0&duration_s=10"
        ))
        .await;
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let w = response.json();
    let channels = w["channels"].as_array().unwrap();
    let names: Vec<&str> = channels
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3", "V4", "V5", "V6"]
    );
    let rate = w["sampling_rate_hz"].as_f64().unwrap();
    let span = |name: &str| {
        let c = channels.iter().find(|c| c["name"] == name).unwrap();
        let samples = c["samples"].as_array().unwrap();
        let first = samples.iter().position(|v| !v.is_null()).unwrap();
        let last = samples.iter().rposition(|v| !v.is_null()).unwrap();
        (first as f64 / rate, (last + 1) as f64 / rate)
    };
    let (a, b) = span("aVR");
    assert!(
        (a - 2.5).abs() < 0.05 && (b - 5.0).abs() < 0.05,
        "aVR {a}-{b}"
    );
    let (a, b) = span("II");
    assert!(a < 0.05 && b > 9.9, "II {a}-{b}");
}

/// 10 s of a synthetic 12-lead sinus rhythm at 500 Hz in mV: 75 bpm (R at 0.35 + 0.8 k s), PR
/// 160 ms, Gaussian P, QRS and T waves projected on each limb lead (QRS axis 60°, P and T 50°),
/// chest leads positive; a little seeded noise, as an amplifier records it.
fn twelve_lead_csv() -> Vec<u8> {
    const NAMES: [&str; 12] = [
        "I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3", "V4", "V5", "V6",
    ];
    const ANGLES: [Option<f64>; 6] = [
        Some(0.0),
        Some(60.0),
        Some(120.0),
        Some(-150.0),
        Some(-30.0),
        Some(90.0),
    ];
    let gauss = |t: f64, c: f64, w: f64| (-(t - c).powi(2) / (2.0 * w * w)).exp();
    let proj = |lead: usize, deg: f64| {
        ANGLES
            .get(lead)
            .copied()
            .flatten()
            .map_or(0.8, |a: f64| (a - deg).to_radians().cos())
    };
    let mut seed = 0x2545_f491_u64;
    let mut noise = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % 1000) as f64 / 1000.0 * 0.004 - 0.002
    };
    let mut text = format!("time,{}\n", NAMES.join(","));
    for i in 0..5000 {
        let t = f64::from(i) / 500.0;
        let _ = write!(text, "{t:.3}");
        for lead in 0..12 {
            let mut v = 0.0;
            let k = (t / 0.8).round();
            for dk in [-1.0, 0.0, 1.0] {
                let r = (k + dk) * 0.8 + 0.35;
                v += 0.15 * proj(lead, 50.0) * gauss(t, r - 0.15, 0.02);
                v += 1.5 * proj(lead, 60.0) * gauss(t, r, 0.012);
                v += 0.35 * proj(lead, 50.0) * gauss(t, r + 0.28, 0.045);
            }
            let _ = write!(text, ",{:.4}", v + noise());
        }
        text.push('\n');
    }
    text.into_bytes()
}

fn opt(v: &Value) -> Option<f64> {
    v.as_f64()
}

pub async fn a_twelve_lead_ecg_comes_back_with_its_fiducials_and_median_beats(mut app: TestApp) {
    // Arrange
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let id = upload(
        &mut app,
        "/api/predict/ecg/upload",
        &[Part::file(
            "twelve.csv",
            Some("text/csv"),
            twelve_lead_csv(),
        )],
    )
    .await;

    // Act: the window 2-6 s.
    let response = app
        .get(&format!(
            "/api/analyses/{id}/waveform?start_s=2&duration_s=4"
        ))
        .await;

    // Assert: the beats that meet 2-6 s (R at 2.75, 3.55, 4.35, 5.15, 5.95; the one at 1.95
    // ends after 2 s), each with its global fiducials in order and a QRS of 40-200 ms.
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let w = response.json();
    let e = &w["ecg12"];
    let beats = e["global_beats"].as_array().unwrap();
    let r: Vec<f64> = beats.iter().map(|b| b["r_s"].as_f64().unwrap()).collect();
    assert!(on_grid(&r, 0.35, 0.8, 0.02), "{r:?}");
    assert!(r.len() == 6 || r.len() == 5, "{r:?}");
    for b in beats {
        let (p_on, qrs_on, qrs_off, t_off) = (
            opt(&b["p_on"]).unwrap(),
            opt(&b["qrs_on"]).unwrap(),
            opt(&b["qrs_off"]).unwrap(),
            opt(&b["t_off"]).unwrap(),
        );
        assert!(p_on < qrs_on && qrs_on < qrs_off && qrs_off < t_off, "{b}");
        assert!((0.04..=0.2).contains(&(qrs_off - qrs_on)), "{b}");
        assert!(t_off >= 2.0 && p_on <= 6.0, "{b}");
    }
    // Every lead's own marks, inside the window.
    let marks = e["lead_marks"].as_array().unwrap();
    assert_eq!(marks.len(), 12);
    assert_eq!(marks[3]["name"], "aVR");
    for lead in marks {
        let beats = lead["beats"].as_array().unwrap();
        assert!(beats.len() >= 5, "{lead}");
        for b in beats {
            let r = opt(&b["r_peak"]).unwrap();
            assert!((1.5..6.5).contains(&r), "{b}");
        }
    }
    // The median beats: every lead read, each `len` samples, the global fiducials in order.
    let median = &e["median"];
    assert_eq!(median["sampling_rate_hz"], json!(500.0));
    let leads = median["leads"].as_array().unwrap();
    let names: Vec<&str> = leads.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["I", "II", "III", "aVR", "aVL", "aVF", "V1", "V2", "V3", "V4", "V5", "V6"]
    );
    let len = leads[0]["samples"].as_array().unwrap().len();
    // The median RR (0.8 s) long.
    assert_eq!(len, 400);
    assert!(leads
        .iter()
        .all(|l| l["samples"].as_array().unwrap().len() == len));
    let span = len as f64 / 500.0;
    let f: Vec<f64> = ["p_on_s", "qrs_on_s", "qrs_off_s", "t_off_s"]
        .iter()
        .map(|k| opt(&median[*k]).unwrap())
        .collect();
    assert!(
        0.0 <= f[0] && f[0] < f[1] && f[1] < f[2] && f[2] < f[3] && f[3] <= span,
        "{f:?}"
    );
}

pub async fn a_single_lead_ecg_has_no_twelve_lead_marks(mut app: TestApp) {
    // Arrange
    with_echo(&mut app);
    app.signed_in_doctor().await;
    let id = upload(
        &mut app,
        "/api/predict/ecg/upload",
        &[Part::file("one.csv", Some("text/csv"), csv_recording(20.0))],
    )
    .await;
    // Act
    let response = app.get(&format!("/api/analyses/{id}/waveform")).await;
    // Assert
    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    assert_eq!(response.json()["ecg12"], Value::Null);
}

/// Issue 41: a 4-minute ECG is read whole and its beats classed; the paper gets the reading's
/// beats with one class (`n`, `s` or `v`) per beat, the same classes the result counted.
pub async fn a_long_ecg_comes_back_with_the_class_of_every_beat(mut app: TestApp) {
    app.signed_in_doctor().await;
    let id = app.upload_long_ecg().await;
    let analysis = app.get(&format!("/api/analyses/{id}")).await.json();
    let details = &analysis["result"]["details"];
    assert!(details["beat_counts"].is_object(), "{details}");

    let response = app
        .get(&format!(
            "/api/analyses/{id}/waveform?start_s=100&duration_s=10"
        ))
        .await;

    assert_eq!(response.status, StatusCode::OK, "{}", response.text);
    let w = response.json();
    let beats = times(&w["beats_s"]);
    let classes = w["beat_classes"].as_str().expect("classes for a long ECG");
    assert!(beats.len() > 200, "{}", beats.len());
    assert_eq!(classes.len(), beats.len());
    assert!(
        classes.chars().all(|c| matches!(c, 'n' | 's' | 'v')),
        "{classes}"
    );
    // The result counts the beats outside noisy stretches: all of them when none was noisy.
    for (code, key) in [('n', "n"), ('s', "s"), ('v', "v")] {
        let served = classes.chars().filter(|c| *c == code).count() as u64;
        let counted = details["beat_counts"][key].as_u64().unwrap();
        if details["noisy_s"].as_f64() == Some(0.0) {
            assert_eq!(served, counted, "{key}: {classes}");
        } else {
            assert!(served >= counted, "{key}: {served} < {counted}");
        }
    }

    // A short recording's waveform carries no classes.
    with_echo(&mut app);
    let short = upload(
        &mut app,
        "/api/predict/ecg/upload",
        &[Part::file("leads.csv", Some("text/csv"), two_lead_csv())],
    )
    .await;
    let w = app
        .get(&format!("/api/analyses/{short}/waveform"))
        .await
        .json();
    assert_eq!(w["beat_classes"], Value::Null);
}
