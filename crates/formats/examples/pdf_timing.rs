//! Times the vector ECG PDF reader on one file (default: the shared one-page GE MUSE 12-lead print).
//!
//! ```text
//! cargo run --release -p cardio-formats --example pdf_timing [-- file.pdf]
//! ```

use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        let root = std::env::var("CARDIO_DATASETS").unwrap_or_else(|_| ".".into());
        format!("{root}/ecg_documents/ge-muse-fictitious.pdf")
    });
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let runs = 50;
    let mut best = f64::INFINITY;
    let start = Instant::now();
    for _ in 0..runs {
        let t = Instant::now();
        let rec = cardio_formats::pdf::read(&bytes).expect("a vector ECG PDF");
        assert!(!rec.channels.is_empty());
        best = best.min(t.elapsed().as_secs_f64());
    }
    let mean = start.elapsed().as_secs_f64() / f64::from(runs);
    println!(
        "{path}: {} bytes, mean {:.2} ms, best {:.2} ms over {runs} reads (one thread)",
        bytes.len(),
        mean * 1e3,
        best * 1e3
    );
}
