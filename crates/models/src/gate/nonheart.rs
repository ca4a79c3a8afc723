//! Seeded signals that are not a heart: the negatives the plausibility gate is trained and
//! validated on, and the inputs the tests feed to every model. Each [`Kind`] is drawn for a
//! modality at one of that modality's usual sampling rates, with a random length, level and
//! parameters; the same kind, modality and seed always give the same samples.

use super::GateModality;
use crate::rng::SplitMix64;

/// The kinds of non-heart signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Gaussian white noise.
    WhiteNoise,
    /// 1/f ("pink") noise.
    PinkNoise,
    /// A random walk (integrated white noise).
    RandomWalk,
    /// One sine at a random frequency.
    Tone,
    /// Three or four simultaneous notes of a chord, held.
    Chord,
    /// A melody: notes with attack and decay changing every 0.15-0.6 s, over a held chord.
    Music,
    /// Noise shaped by a random syllable-rate (3-7 Hz) envelope with pauses, like speech.
    SpeechLike,
    /// Noise whose amplitude is modulated by a sine at 0.5-8 Hz.
    AmNoise,
    /// Mains hum: 50 or 60 Hz with harmonics and a little noise.
    Mains,
    /// Rare single-sample spikes at random times on a flat line with a little noise.
    SparseSpikes,
    /// Slow, large movements with steps and jolts.
    MovementArtefact,
    /// Electrode pops: steps that decay back, at random times, on noise.
    ElectrodePops,
    /// A sine or noise hard-limited at its rails.
    Clipped,
    /// Samples alternating between +A and -A (A up to 1e6).
    Alternating,
    /// A square wave at a random frequency.
    Square,
    /// A sine sweeping in frequency.
    Chirp,
    /// A sawtooth (a slow ramp and a sudden return) at a pulse rate (40-180 /min), as a test
    /// pattern or a blinking light in front of a camera gives.
    Sawtooth,
    /// One sine at a pulse rate (40-180 /min).
    PulseRateSine,
    /// A square wave at a pulse rate (40-180 /min).
    PulseRateSquare,
    /// A sine sweeping between two pulse rates (40-180 /min).
    PulseRateChirp,
}

/// Every kind, in a fixed order.
pub const KINDS: [Kind; 20] = [
    Kind::WhiteNoise,
    Kind::PinkNoise,
    Kind::RandomWalk,
    Kind::Tone,
    Kind::Chord,
    Kind::Music,
    Kind::SpeechLike,
    Kind::AmNoise,
    Kind::Mains,
    Kind::SparseSpikes,
    Kind::MovementArtefact,
    Kind::ElectrodePops,
    Kind::Clipped,
    Kind::Alternating,
    Kind::Square,
    Kind::Chirp,
    Kind::Sawtooth,
    Kind::PulseRateSine,
    Kind::PulseRateSquare,
    Kind::PulseRateChirp,
];

impl Kind {
    /// Name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::WhiteNoise => "white noise",
            Self::PinkNoise => "pink noise",
            Self::RandomWalk => "random walk",
            Self::Tone => "tone",
            Self::Chord => "chord",
            Self::Music => "music",
            Self::SpeechLike => "speech-like",
            Self::AmNoise => "AM noise",
            Self::Mains => "mains",
            Self::SparseSpikes => "sparse spikes",
            Self::MovementArtefact => "movement",
            Self::ElectrodePops => "electrode pops",
            Self::Clipped => "clipped",
            Self::Alternating => "alternating",
            Self::Square => "square",
            Self::Chirp => "chirp",
            Self::Sawtooth => "sawtooth",
            Self::PulseRateSine => "sine at a pulse rate",
            Self::PulseRateSquare => "square at a pulse rate",
            Self::PulseRateChirp => "chirp at pulse rates",
        }
    }
}

/// A generated signal.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The kind.
    pub kind: Kind,
    /// The seed.
    pub seed: u64,
    /// Samples per second.
    pub fs_hz: f64,
    /// The samples (ECG: millivolts).
    pub samples: Vec<f64>,
}

struct Rng(SplitMix64);

impl Rng {
    fn uniform(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.uniform()
    }
    fn log_range(&mut self, a: f64, b: f64) -> f64 {
        (a.ln() + (b.ln() - a.ln()) * self.uniform()).exp()
    }
    fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        options[(self.0.next_u64() % options.len() as u64) as usize]
    }
    /// Standard normal (Box-Muller).
    fn normal(&mut self) -> f64 {
        let u = self.uniform().max(1e-300);
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// Sampling rates a modality's files come at.
fn rates(modality: GateModality) -> &'static [f64] {
    match modality {
        GateModality::Ecg => &[250.0, 300.0, 360.0, 500.0],
        GateModality::Pcg => &[2000.0, 4000.0, 8000.0],
        GateModality::Ppg => &[25.0, 50.0, 100.0, 125.0],
    }
}

/// A frequency range that reaches into the modality's band and around it, Hz.
fn tone_range(modality: GateModality, fs: f64) -> (f64, f64) {
    match modality {
        GateModality::Ecg => (0.3, 0.45 * fs),
        GateModality::Pcg => (20.0, 1500.0_f64.min(0.45 * fs)),
        GateModality::Ppg => (0.1, 0.45 * fs),
    }
}

/// Draws one signal of `kind` for `modality` from `seed`.
// Short names (r, n, t, f, a) follow the formulas they implement.
#[allow(clippy::many_single_char_names)]
pub fn generate(kind: Kind, modality: GateModality, seed: u64) -> Generated {
    let salt =
        (KINDS.iter().position(|k| *k == kind).unwrap_or(0) as u64) << 48 | (modality as u64) << 40;
    let mut r = Rng(SplitMix64::new(seed ^ salt ^ 0x6A7E_5EED));
    let fs = r.pick(rates(modality));
    let seconds = r.range(12.0, 40.0);
    let n = (seconds * fs) as usize;
    let level = match modality {
        GateModality::Ecg => r.log_range(0.2, 4.0),
        _ => r.log_range(0.05, 20_000.0),
    };
    let (f_lo, f_hi) = tone_range(modality, fs);
    let tau = 2.0 * std::f64::consts::PI;
    let t = |i: usize| i as f64 / fs;
    let mut x: Vec<f64> = match kind {
        Kind::WhiteNoise => (0..n).map(|_| r.normal()).collect(),
        Kind::PinkNoise => pink(&mut r, n),
        Kind::RandomWalk => {
            let mut acc = 0.0;
            (0..n)
                .map(|_| {
                    acc += r.normal();
                    acc
                })
                .collect()
        }
        Kind::Tone => {
            let f = r.log_range(f_lo, f_hi);
            let ph = r.range(0.0, tau);
            (0..n).map(|i| (tau * f * t(i) + ph).sin()).collect()
        }
        Kind::Chord => {
            let root = r.log_range(f_lo, f_hi / 2.0);
            let ratios = r.pick(&[[1.0, 1.26, 1.5, 2.0], [1.0, 1.19, 1.5, 1.78]]);
            let phases: Vec<f64> = (0..4).map(|_| r.range(0.0, tau)).collect();
            (0..n)
                .map(|i| {
                    ratios
                        .iter()
                        .zip(&phases)
                        .map(|(k, p)| (tau * root * k * t(i) + p).sin())
                        .sum::<f64>()
                })
                .collect()
        }
        Kind::Music => music(&mut r, n, fs, f_lo, f_hi),
        Kind::SpeechLike => speech_like(&mut r, n, fs),
        Kind::AmNoise => {
            let fm = r.range(0.5, 8.0);
            let depth = r.range(0.5, 1.0);
            (0..n)
                .map(|i| (1.0 + depth * (tau * fm * t(i)).sin()) * r.normal())
                .collect()
        }
        Kind::Mains => {
            let f0 = r.pick(&[50.0, 60.0]);
            let h2 = r.range(0.0, 0.3);
            let h3 = r.range(0.0, 0.3);
            let noise = r.range(0.0, 0.05);
            (0..n)
                .map(|i| {
                    (tau * f0 * t(i)).sin()
                        + h2 * (2.0 * tau * f0 * t(i)).sin()
                        + h3 * (3.0 * tau * f0 * t(i)).sin()
                        + noise * r.normal()
                })
                .collect()
        }
        Kind::SparseSpikes => {
            let rate = r.range(0.2, 3.0);
            let noise = r.range(0.0, 0.02);
            (0..n)
                .map(|_| {
                    let spike = if r.uniform() < rate / fs {
                        r.range(0.5, 1.0) * r.pick(&[1.0, -1.0])
                    } else {
                        0.0
                    };
                    spike + noise * r.normal()
                })
                .collect()
        }
        Kind::MovementArtefact => movement(&mut r, n, fs),
        Kind::ElectrodePops => {
            let mut level_now = 0.0;
            let decay = (-1.0 / (r.range(0.1, 1.0) * fs)).exp();
            let rate = r.range(0.1, 1.0);
            let noise = r.range(0.01, 0.1);
            (0..n)
                .map(|_| {
                    if r.uniform() < rate / fs {
                        level_now += r.range(-1.0, 1.0) * 5.0;
                    }
                    level_now *= decay;
                    level_now + noise * r.normal()
                })
                .collect()
        }
        Kind::Clipped => {
            let f = r.log_range(f_lo, f_hi);
            let gain = r.range(2.0, 10.0);
            let noisy = r.uniform() < 0.5;
            (0..n)
                .map(|i| {
                    let v = if noisy {
                        r.normal()
                    } else {
                        (tau * f * t(i)).sin()
                    };
                    (gain * v).clamp(-1.0, 1.0)
                })
                .collect()
        }
        Kind::Alternating => {
            let a = r.log_range(1.0, 1e6);
            return Generated {
                kind,
                seed,
                fs_hz: fs,
                samples: (0..n).map(|i| if i % 2 == 0 { a } else { -a }).collect(),
            };
        }
        Kind::Square => {
            let f = r.log_range(f_lo, f_hi / 3.0);
            (0..n)
                .map(|i| {
                    if (tau * f * t(i)).sin() >= 0.0 {
                        1.0
                    } else {
                        -1.0
                    }
                })
                .collect()
        }
        Kind::Chirp => {
            let a = r.log_range(f_lo, f_hi);
            let b = r.log_range(f_lo, f_hi);
            let dur = n as f64 / fs;
            (0..n)
                .map(|i| {
                    let ti = t(i);
                    (tau * (a * ti + (b - a) * ti * ti / (2.0 * dur))).sin()
                })
                .collect()
        }
        Kind::Sawtooth => {
            let f = r.range(40.0, 180.0) / 60.0;
            let falling = r.uniform() < 0.5;
            (0..n)
                .map(|i| {
                    let ramp = (f * t(i)).fract();
                    if falling {
                        -ramp
                    } else {
                        ramp
                    }
                })
                .collect()
        }
        Kind::PulseRateSine => {
            let f = r.range(40.0, 180.0) / 60.0;
            let ph = r.range(0.0, tau);
            (0..n).map(|i| (tau * f * t(i) + ph).sin()).collect()
        }
        Kind::PulseRateSquare => {
            let f = r.range(40.0, 180.0) / 60.0;
            let duty = r.range(0.2, 0.8);
            (0..n)
                .map(|i| if (f * t(i)).fract() < duty { 1.0 } else { -1.0 })
                .collect()
        }
        Kind::PulseRateChirp => {
            let a = r.range(40.0, 180.0) / 60.0;
            let b = r.range(40.0, 180.0) / 60.0;
            let dur = n as f64 / fs;
            (0..n)
                .map(|i| {
                    let ti = t(i);
                    (tau * (a * ti + (b - a) * ti * ti / (2.0 * dur))).sin()
                })
                .collect()
        }
    };
    let peak = x.iter().fold(0.0_f64, |m, v| m.max(v.abs())).max(1e-12);
    let offset = r.range(-1.0, 1.0) * level;
    // Every recording passes an analogue-to-digital converter: quantise to 8-16 bits over the
    // signal's range, as real files are (else "no repeated sample" alone would tell them apart).
    let bits = r.pick(&[8.0, 10.0, 12.0, 16.0]);
    let step = 2.0 * level / 2f64.powf(bits);
    for v in &mut x {
        *v = ((*v / peak * level + offset) / step).round() * step;
    }
    Generated {
        kind,
        seed,
        fs_hz: fs,
        samples: x,
    }
}

/// Pink noise by the Voss-McCartney sum of 12 held random rows.
fn pink(r: &mut Rng, n: usize) -> Vec<f64> {
    let mut rows = [0.0; 12];
    for v in &mut rows {
        *v = r.normal();
    }
    (0..n)
        .map(|i| {
            let k = (i + 1).trailing_zeros() as usize;
            if k < rows.len() {
                rows[k] = r.normal();
            }
            rows.iter().sum::<f64>() + r.normal()
        })
        .collect()
}

fn music(r: &mut Rng, n: usize, fs: f64, f_lo: f64, f_hi: f64) -> Vec<f64> {
    let tau = 2.0 * std::f64::consts::PI;
    let base = r.log_range(f_lo, f_hi / 4.0);
    let scale = [1.0, 1.122, 1.26, 1.335, 1.498, 1.682, 1.888, 2.0];
    let mut out = vec![0.0; n];
    let mut i = 0;
    let mut phase = 0.0;
    while i < n {
        let len = (r.range(0.15, 0.6) * fs) as usize;
        let f = base * r.pick(&scale) * r.pick(&[1.0, 2.0]);
        let attack = (0.02 * fs).max(1.0);
        for k in 0..len.min(n - i) {
            let env = (k as f64 / attack).min(1.0) * (-(k as f64) / (0.3 * fs)).exp();
            phase += tau * f / fs;
            out[i + k] = env * (phase.sin() + 0.3 * (2.0 * phase).sin());
        }
        i += len.max(1);
    }
    // The held chord underneath.
    for (k, v) in out.iter_mut().enumerate() {
        let t = k as f64 / fs;
        *v += 0.3 * ((tau * base * t).sin() + (tau * base * 1.5 * t).sin());
    }
    out
}

fn speech_like(r: &mut Rng, n: usize, fs: f64) -> Vec<f64> {
    // Syllables of 0.1-0.3 s, words of 2-6 syllables, pauses of 0.1-0.8 s; voiced noise.
    let mut env = vec![0.0; n];
    let mut i = 0;
    while i < n {
        let syllables = (r.range(2.0, 6.99)) as usize;
        for _ in 0..syllables {
            let len = (r.range(0.1, 0.3) * fs) as usize;
            let amp = r.range(0.3, 1.0);
            for k in 0..len.min(n.saturating_sub(i)) {
                env[i + k] = amp * (std::f64::consts::PI * k as f64 / len as f64).sin();
            }
            i += len;
        }
        i += (r.range(0.1, 0.8) * fs) as usize;
    }
    let pitch = r.range(90.0, 250.0);
    let tau = 2.0 * std::f64::consts::PI;
    env.iter()
        .enumerate()
        .map(|(k, e)| {
            let t = k as f64 / fs;
            e * (0.6 * r.normal() + (tau * pitch * t).sin().signum() * 0.4)
        })
        .collect()
}

fn movement(r: &mut Rng, n: usize, fs: f64) -> Vec<f64> {
    let mut out = vec![0.0; n];
    let mut level = 0.0;
    let mut slow = 0.0;
    let alpha = 1.0 / (r.range(0.2, 2.0) * fs);
    for v in &mut out {
        if r.uniform() < 0.3 / fs {
            level += r.range(-3.0, 3.0);
        }
        slow += alpha * (r.normal() * 20.0 - slow);
        *v = level + slow + 0.02 * r.normal();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_signal_and_another_seed_another() {
        for kind in KINDS {
            let a = generate(kind, GateModality::Pcg, 3);
            let b = generate(kind, GateModality::Pcg, 3);
            let c = generate(kind, GateModality::Pcg, 4);
            assert_eq!(a.samples, b.samples, "{}", kind.name());
            assert_ne!(a.samples, c.samples, "{}", kind.name());
            assert!(a.samples.iter().all(|v| v.is_finite()), "{}", kind.name());
            assert!(a.samples.len() as f64 / a.fs_hz >= 12.0);
        }
    }
}
