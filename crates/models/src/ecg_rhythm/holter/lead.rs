//! The analysed lead of a long record, read a stretch at a time: held in memory ([`InMemory`],
//! a recording already read) or read from its file on demand ([`OnDisk`], a record opened
//! with [`cardio_formats::open_path`]), so that a day-long record is analysed without
//! ever being held whole. Both give the same samples, so the reading is the same.

use std::borrow::Cow;
use std::convert::Infallible;

use cardio_formats::{Channel, ChannelFile, FormatError, Recording};

use super::super::{has_unit, mv_per_unit};

/// What a lead's samples are: their rate and unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LeadInfo {
    /// Sampling rate, Hz.
    pub fs: f64,
    /// Millivolts per unit of [`LongLead::raw`].
    pub scale: f64,
    /// Whether the lead's unit is known (a calibrated lead).
    pub calibrated: bool,
}

impl LeadInfo {
    /// The rate and unit of `channel` at `fs` Hz.
    pub fn of(channel: &Channel, fs: f64) -> Self {
        Self {
            fs,
            scale: mv_per_unit(channel),
            calibrated: has_unit(channel),
        }
    }
}

/// A lead read a stretch at a time.
pub trait LongLead {
    /// Why a stretch could not be read.
    type Error;

    /// Samples in the lead.
    fn len(&self) -> usize;

    /// Whether the lead has no sample.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The samples' rate and unit.
    fn info(&self) -> LeadInfo;

    /// Sampling rate, Hz.
    fn fs(&self) -> f64 {
        self.info().fs
    }

    /// Millivolts per unit of [`LongLead::raw`].
    fn scale(&self) -> f64 {
        self.info().scale
    }

    /// Whether the lead's unit is known (a calibrated lead).
    fn calibrated(&self) -> bool {
        self.info().calibrated
    }

    /// Samples `a..b` in the lead's own unit (clamped to the lead; NaN where a sample is
    /// missing).
    ///
    /// # Errors
    /// When the stretch cannot be read.
    fn raw(&self, a: usize, b: usize) -> Result<Cow<'_, [f64]>, Self::Error>;

    /// Samples `a..b` in millivolts.
    ///
    /// # Errors
    /// As [`LongLead::raw`].
    fn mv(&self, a: usize, b: usize) -> Result<Stretch<'_>, Self::Error> {
        let scale = self.scale();
        let raw = self.raw(a, b)?;
        let mv = if scale == 1.0 {
            raw
        } else {
            Cow::Owned(raw.iter().map(|v| v * scale).collect())
        };
        Ok(Stretch {
            mv,
            first: a.min(self.len()),
            total: self.len(),
        })
    }
}

/// A stretch of a lead in millivolts, where it starts in the lead and the lead's length.
#[derive(Debug, Clone)]
pub struct Stretch<'a> {
    /// The samples, mV.
    pub mv: Cow<'a, [f64]>,
    /// Index in the lead of `mv[0]`.
    pub first: usize,
    /// Samples in the whole lead.
    pub total: usize,
}

impl<'a> Stretch<'a> {
    /// A whole lead as a stretch.
    pub fn whole(mv: &'a [f64]) -> Self {
        Self {
            mv: Cow::Borrowed(mv),
            first: 0,
            total: mv.len(),
        }
    }

    /// Samples `a..=b` of the lead (indices in the lead); `None` when not all are in the stretch.
    pub fn span(&self, a: usize, b: usize) -> Option<&[f64]> {
        let from = a.checked_sub(self.first)?;
        let to = b.checked_sub(self.first)?;
        self.mv.get(from..=to)
    }
}

/// A lead of a recording held in memory.
#[derive(Debug, Clone, Copy)]
pub struct InMemory<'a> {
    samples: &'a [f64],
    info: LeadInfo,
}

impl<'a> InMemory<'a> {
    /// Lead `lead` of `rec` (which must exist).
    pub fn of(rec: &'a Recording, lead: usize) -> Self {
        let channel = &rec.channels[lead];
        Self {
            samples: &channel.samples,
            info: LeadInfo::of(channel, rec.sampling_rate_hz),
        }
    }

    /// A lead already in millivolts at `fs` Hz.
    pub fn millivolts(mv: &'a [f64], fs: f64) -> Self {
        Self {
            samples: mv,
            info: LeadInfo {
                fs,
                scale: 1.0,
                calibrated: true,
            },
        }
    }
}

impl LongLead for InMemory<'_> {
    type Error = Infallible;

    fn len(&self) -> usize {
        self.samples.len()
    }

    fn info(&self) -> LeadInfo {
        self.info
    }

    fn raw(&self, a: usize, b: usize) -> Result<Cow<'_, [f64]>, Infallible> {
        let b = b.min(self.samples.len());
        Ok(Cow::Borrowed(&self.samples[a.min(b)..b]))
    }
}

/// A lead of a record on disk, read from its file a stretch at a time.
#[derive(Debug, Clone, Copy)]
pub struct OnDisk<'a> {
    signal: &'a dyn ChannelFile,
    info: LeadInfo,
}

impl<'a> OnDisk<'a> {
    /// The signal `signal` whose first seconds are `head` (its name and unit), at `fs` Hz.
    pub fn new(signal: &'a dyn ChannelFile, head: &Channel, fs: f64) -> Self {
        Self {
            signal,
            info: LeadInfo::of(head, fs),
        }
    }
}

impl LongLead for OnDisk<'_> {
    type Error = FormatError;

    fn len(&self) -> usize {
        self.signal.len()
    }

    fn info(&self) -> LeadInfo {
        self.info
    }

    fn raw(&self, a: usize, b: usize) -> Result<Cow<'_, [f64]>, FormatError> {
        self.signal.read(a, b).map(Cow::Owned)
    }
}
