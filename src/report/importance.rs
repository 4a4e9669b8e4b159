//! Parameter importance from a run's trials alone: for each tuned parameter, the share of the
//! variance of fitness that its value explains (the correlation ratio η², between-bin variance
//! over total variance), with the parameter's values binned: one bin per value when it takes at
//! most [`BINS`] distinct values (integers, choices, booleans), else [`BINS`] equal-width bins over
//! its range. 1 means the parameter alone decides the fitness, 0 that it tells nothing. Shares
//! of several parameters need not sum to 1 (parameters interact, and a search samples them
//! together).

use super::plot::{SpaceInfo, SpacePoint};

/// Bins of a parameter with many distinct values.
pub const BINS: usize = 10;

/// One parameter's importance.
#[derive(Debug, Clone, PartialEq)]
pub struct Importance {
    /// The parameter.
    pub name: String,
    /// Share of the fitness variance explained by its (binned) value, in [0, 1].
    pub eta2: f64,
    /// Bins that held at least one individual.
    pub bins: usize,
    /// The individuals it was measured over: those in which the parameter is active.
    pub individuals: usize,
}

/// The bin of every point's value of gene `g` (points where it is inactive left out).
fn bins(points: &[&SpacePoint], g: usize, range: (f64, f64)) -> Vec<usize> {
    let mut distinct: Vec<f64> = points.iter().map(|p| p.values[g]).collect();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    if distinct.len() <= BINS {
        return points.iter().map(|p| distinct.partition_point(|v| *v < p.values[g])).collect();
    }
    let (lo, hi) = range;
    let width = (hi - lo).max(1e-12);
    points
        .iter()
        .map(|p| (((p.values[g] - lo) / width * BINS as f64).floor().max(0.0) as usize).min(BINS - 1))
        .collect()
}

/// The importance of every tuned parameter, in gene order, from the plotted points (every
/// distinct evaluated individual with a finite fitness), each over the individuals in which it
/// is active (a value that is NaN marks an inactive gene: a switched-off member's parameter
/// explains nothing of that individual's fitness).
pub fn importance(info: &SpaceInfo) -> Vec<Importance> {
    (0..info.names.len())
        .map(|g| {
            let pts: Vec<&SpacePoint> = info.points.iter().filter(|p| !p.values[g].is_nan()).collect();
            let n = pts.len() as f64;
            let mean = pts.iter().map(|p| p.fitness).sum::<f64>() / n.max(1.0);
            let total: f64 = pts.iter().map(|p| (p.fitness - mean).powi(2)).sum();
            let b = bins(&pts, g, info.ranges[g]);
            let k = b.iter().max().map_or(0, |m| m + 1);
            let (mut sum, mut count) = (vec![0.0; k], vec![0usize; k]);
            for (p, &i) in pts.iter().zip(&b) {
                sum[i] += p.fitness;
                count[i] += 1;
            }
            let between: f64 = sum
                .iter()
                .zip(&count)
                .filter(|(_, c)| **c > 0)
                .map(|(s, &c)| c as f64 * (s / c as f64 - mean).powi(2))
                .sum();
            let eta2 = if total > 0.0 { (between / total).clamp(0.0, 1.0) } else { 0.0 };
            Importance {
                name: info.names[g].clone(),
                eta2,
                bins: count.iter().filter(|c| **c > 0).count(),
                individuals: pts.len(),
            }
        })
        .collect()
}

/// `importance.csv`: `parameter, eta2, bins, individuals` (those in which the parameter is
/// active), most important first.
pub fn rows(imp: &[Importance]) -> Vec<Vec<String>> {
    let mut sorted: Vec<&Importance> = imp.iter().collect();
    sorted.sort_by(|a, b| b.eta2.total_cmp(&a.eta2));
    let mut rows = vec![["parameter", "eta2", "bins", "individuals"].map(String::from).to_vec()];
    rows.extend(
        sorted
            .iter()
            .map(|i| vec![i.name.clone(), format!("{:.6}", i.eta2), i.bins.to_string(), i.individuals.to_string()]),
    );
    rows
}

#[cfg(test)]
mod tests {
    // Exact values are the point of these tests.
    #![allow(clippy::float_cmp)]
    use super::*;

    fn info(points: Vec<SpacePoint>) -> SpaceInfo {
        SpaceInfo {
            title: String::new(),
            names: vec!["a".into(), "b".into()],
            ranges: vec![(0.0, 1.0), (0.0, 100.0)],
            axes: Vec::new(),
            points,
            best: None,
            known: Vec::new(),
        }
    }

    #[test]
    fn the_parameter_that_decides_the_fitness_explains_all_of_it() {
        // Fitness = a (two values); b varies over 100 values independently of it.
        let pts = (0..100)
            .map(|k| {
                let a = (k % 2) as f64;
                SpacePoint { values: vec![a, ((k * 37) % 100) as f64], fitness: a, generation: 0 }
            })
            .collect();
        let imp = importance(&info(pts));
        assert!((imp[0].eta2 - 1.0).abs() < 1e-12 && imp[0].bins == 2, "{imp:?}");
        assert!(imp[1].eta2 < 0.15 && imp[1].bins == BINS, "{imp:?}");
        assert_eq!(rows(&imp)[1][0], "a");
    }

    #[test]
    fn a_worked_example_of_eta_squared() {
        // a ∈ {0, 1}; fitness 1, 3 at a = 0 and 5, 7 at a = 1: mean 4, total SS 20,
        // between SS 2·(2−4)² + 2·(6−4)² = 16, η² = 0.8.
        let f = [(0.0, 1.0), (0.0, 3.0), (1.0, 5.0), (1.0, 7.0)];
        let pts = f.iter().map(|&(a, y)| SpacePoint { values: vec![a, 0.0], fitness: y, generation: 0 }).collect();
        let imp = importance(&info(pts));
        assert!((imp[0].eta2 - 0.8).abs() < 1e-12, "{imp:?}");
        assert!(imp[1].eta2.abs() < 1e-12, "a constant parameter explains nothing");
    }
}
