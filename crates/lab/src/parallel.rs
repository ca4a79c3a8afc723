//! Work spread over the machine's two cores, results in job order: the lab's loops over
//! recordings and folds.

/// Threads the work is spread over.
pub const THREADS: usize = 2;

/// Runs `f` on every job, [`THREADS`] at a time, results in job order.
pub fn par_map<J: Sync, R: Send>(jobs: &[J], f: impl Fn(&J) -> R + Sync) -> Vec<R> {
    let f = &f;
    let mut out: Vec<Option<R>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                s.spawn(move || {
                    jobs.iter()
                        .enumerate()
                        .skip(t)
                        .step_by(THREADS)
                        .map(|(i, j)| (i, f(j)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut out: Vec<Option<R>> = (0..jobs.len()).map(|_| None).collect();
        for h in handles {
            if let Ok(part) = h.join() {
                for (i, r) in part {
                    out[i] = Some(r);
                }
            }
        }
        out
    });
    out.iter_mut()
        .map(|r| r.take().expect("every job ran"))
        .collect()
}
