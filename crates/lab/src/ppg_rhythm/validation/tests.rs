//! Unit tests of the PPG rhythm model's validation.

use super::cells::{af_cell, Scored};
use super::*;

fn window(group: &str, label: WindowLabel) -> Window {
    Window {
        source: Source::Mitdb,
        record: 0,
        group: group.into(),
        length_s: 10.0,
        start_s: 0.0,
        label,
        features: vec![0.0],
        intervals_ms: Vec::new(),
    }
}

#[test]
fn folds_never_split_a_person_and_spread_af_persons() {
    let mut w = Vec::new();
    for g in 0..20 {
        for _ in 0..5 {
            let label = if g < 5 {
                WindowLabel::Af
            } else {
                WindowLabel::Normal
            };
            w.push(window(&format!("p{g}"), label));
        }
    }
    let w: Vec<&Window> = w.iter().collect();
    let folds = grouped_folds(&w, 5, 3);
    for g in 0..20 {
        let name = format!("p{g}");
        let f: BTreeSet<usize> = w
            .iter()
            .zip(&folds)
            .filter(|(x, _)| x.group == name)
            .map(|(_, &f)| f)
            .collect();
        assert_eq!(f.len(), 1);
    }
    let af_folds: BTreeSet<usize> = w
        .iter()
        .zip(&folds)
        .filter(|(x, _)| x.label == WindowLabel::Af)
        .map(|(_, &f)| f)
        .collect();
    assert_eq!(af_folds.len(), 5);
    assert_eq!(folds, grouped_folds(&w, 5, 3));
}

#[test]
fn the_threshold_balances_sensitivity_and_specificity_on_ten_second_windows() {
    let af = window("a", WindowLabel::Af);
    let non = window("b", WindowLabel::Normal);
    let mut long = window("c", WindowLabel::Normal);
    long.length_s = 30.0;
    // AF at 0.42 and 0.8; non-AF at 0.1 and 0.38: any t in (0.38, 0.42] separates them.
    let scored = vec![
        (&af, 0.42),
        (&af, 0.8),
        (&non, 0.1),
        (&non, 0.38),
        (&long, 0.99),
    ];
    assert_eq!(best_threshold(&scored), 0.4);
    assert_eq!(best_threshold(&[(&non, 0.3)]), 0.5);
}

#[test]
fn kappa_is_one_for_perfect_agreement_and_zero_for_chance() {
    assert_eq!(kappa([5, 0, 0, 5]), 1.0);
    assert_eq!(kappa([25, 25, 25, 25]), 0.0);
    assert!(kappa([0, 0, 0, 0]).is_nan());
}

#[test]
fn sensitivity_and_specificity_are_exact_and_cis_contain_them() {
    let scored: Vec<Scored> = (0..40)
        .map(|i| Scored {
            group: ["a", "b", "c", "d", "e", "f", "g", "h"][i % 8],
            af: i % 2 == 0,
            p: if i % 4 == 0 || i % 10 == 1 { 0.9 } else { 0.1 },
            pos: i % 4 == 0 || i % 10 == 1,
        })
        .collect();
    let c = af_cell("x", 10.0, &scored, 1);
    // AF windows: i even (20); called AF when i % 4 == 0 (10) -> Se 0.5.
    assert_eq!(c.se, 0.5);
    // Non-AF: i odd (20); called AF when i % 10 == 1 (4) -> Sp 0.8.
    assert_eq!(c.sp, 0.8);
    assert!(c.se_ci.0 <= c.se && c.se <= c.se_ci.1);
    assert!(c.sp_ci.0 <= c.sp && c.sp <= c.sp_ci.1);
    assert_eq!(c.windows, 40);
    assert_eq!(c.persons, 8);
}
