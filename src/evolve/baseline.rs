//! Baselines with the same budget as the GA: uniform random search and a grid.
//!
//! The grid has `k` evenly spaced points per Real gene (bounds included, snapped to the step),
//! up to `k` evenly spaced integers per Int gene and every value of Cat and Bool genes; `k` is
//! the largest (at least 2) that keeps the grid within the budget. Points are enumerated in
//! mixed-radix order (the last gene varies fastest) and never materialised all at once.

use super::config::Config;
use super::genome::{Gene, Genome, Space};
use super::operators::random_generation;
use super::problem::Fitness;
use super::strategy::Strategy;
use crate::error::{Error, Result};
use rand::rngs::StdRng;

/// Uniform random search: every generation is `population` fresh random genomes.
#[derive(Debug, Clone)]
pub struct RandomSearch {
    /// Genomes per generation.
    pub population: usize,
}

impl Strategy for RandomSearch {
    fn initial(&mut self, space: &Space, n: usize, rng: &mut StdRng) -> Vec<Genome> {
        random_generation(space, n, rng)
    }
    fn propose(&mut self, space: &Space, _: &[Genome], _: &[Fitness], rng: &mut StdRng) -> Vec<Genome> {
        random_generation(space, self.population, rng)
    }
}

/// Grid search: the points of a [`Grid`] sized to the budget, `population` at a time, in order.
/// Its state is the cursor (the next point's index), saved in the checkpoint.
#[derive(Debug, Clone)]
pub struct GridSearch {
    grid: Grid,
    population: usize,
    cursor: usize,
}

impl GridSearch {
    /// The grid for `config`'s budget (population × max generations) over `space`.
    pub fn new(space: &Space, config: &Config) -> GridSearch {
        GridSearch { grid: Grid::for_budget(space, config.budget()), population: config.population, cursor: 0 }
    }

    fn take(&mut self, n: usize) -> Vec<Genome> {
        let chunk = self.grid.chunk(self.cursor, n);
        self.cursor += chunk.len();
        chunk
    }
}

impl Strategy for GridSearch {
    fn initial(&mut self, _: &Space, n: usize, _: &mut StdRng) -> Vec<Genome> {
        self.take(n)
    }
    fn propose(&mut self, _: &Space, _: &[Genome], _: &[Fitness], _: &mut StdRng) -> Vec<Genome> {
        self.take(self.population)
    }
    fn exhausted(&self) -> bool {
        self.cursor >= self.grid.len()
    }
    fn save(&self) -> serde_json::Value {
        serde_json::json!({ "cursor": self.cursor })
    }
    fn load(&mut self, state: &serde_json::Value) -> Result<()> {
        let cursor = state.get("cursor").and_then(serde_json::Value::as_u64);
        self.cursor = cursor.ok_or_else(|| Error::config("the checkpoint has no grid cursor"))? as usize;
        Ok(())
    }
}

/// A full-factorial grid over a space.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    axes: Vec<Vec<f64>>,
}

impl Grid {
    /// The grid with `k` points per Real axis (fewer when the step allows fewer), at most `k`
    /// per Int axis and all values of Cat/Bool axes.
    pub fn with_points(space: &Space, k: usize) -> Grid {
        Grid { axes: space.genes.iter().map(|g| axis(g, k)).collect() }
    }

    /// The largest grid (k ≥ 2) with at most `budget` points, or the k = 2 grid if even that is
    /// larger. Found by bisection over k (the grid grows with k), so a float without a step and a
    /// huge budget costs O(log budget) grids instead of O(budget); an axis has at most
    /// [`MAX_AXIS_POINTS`] points.
    pub fn for_budget(space: &Space, budget: usize) -> Grid {
        let cap = space.genes.iter().map(|g| max_points(g, budget)).max().unwrap_or(2).min(budget).max(2);
        let mut grid = Grid::with_points(space, 2);
        let (mut lo, mut hi) = (2, cap);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            let bigger = Grid::with_points(space, mid);
            if bigger.len() <= budget {
                lo = mid;
                grid = bigger;
            } else {
                hi = mid - 1;
            }
        }
        grid
    }

    /// Number of points (saturating).
    pub fn len(&self) -> usize {
        self.axes.iter().fold(1usize, |n, a| n.saturating_mul(a.len()))
    }

    /// Whether the grid has no points (never, for a valid space).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of values on each axis.
    pub fn shape(&self) -> Vec<usize> {
        self.axes.iter().map(Vec::len).collect()
    }

    /// The point with index `i` (< `len()`).
    pub fn point(&self, mut i: usize) -> Genome {
        let mut g = vec![0.0; self.axes.len()];
        for (x, axis) in g.iter_mut().zip(&self.axes).rev() {
            *x = axis[i % axis.len()];
            i /= axis.len();
        }
        g
    }

    /// Up to `n` points from index `start` on.
    pub fn chunk(&self, start: usize, n: usize) -> Vec<Genome> {
        (start..self.len().min(start.saturating_add(n))).map(|i| self.point(i)).collect()
    }
}

/// The values of one axis.
fn axis(gene: &Gene, k: usize) -> Vec<f64> {
    let (lo, hi) = gene.bounds();
    let mut v: Vec<f64> = match *gene {
        Gene::Cat { .. } | Gene::Bool => (0..=hi as usize).map(|i| i as f64).collect(),
        _ if hi <= lo || k < 2 => vec![lo],
        _ => (0..k).map(|i| lo + (hi - lo) * i as f64 / (k - 1) as f64).collect(),
    };
    for x in &mut v {
        *x = gene.repair_value(*x);
    }
    v.dedup_by(|a, b| (*a - *b).abs() < f64::MIN_POSITIVE);
    v
}

/// The most points a grid axis gets, whatever the budget: a million settings of one float are
/// more than any run evaluates.
pub const MAX_AXIS_POINTS: usize = 1_000_000;

/// How many distinct settings the space has, when it is finite and small enough to count
/// (every gene an int, a categorical, a bool or a float with a step): a search that has evaluated
/// them all can stop.
pub fn settings(space: &Space) -> Option<usize> {
    space.genes.iter().try_fold(1usize, |n, g| {
        let (lo, hi) = g.bounds();
        let values = match *g {
            Gene::Real { step: Some(s), .. } if s > 0.0 => {
                let k = ((hi - lo) / s).ceil() + 1.0;
                if !(1.0..=MAX_AXIS_POINTS as f64).contains(&k) {
                    return None;
                }
                axis(g, k as usize).len()
            }
            Gene::Real { .. } => return None,
            _ => (hi - lo) as usize + 1,
        };
        n.checked_mul(values)
    })
}

/// The most distinct values an axis can take, capped at `budget` and [`MAX_AXIS_POINTS`].
fn max_points(gene: &Gene, budget: usize) -> usize {
    let (lo, hi) = gene.bounds();
    let n = match *gene {
        Gene::Real { step: Some(s), .. } if s > 0.0 => (hi - lo) / s + 1.0,
        Gene::Real { .. } => budget as f64,
        Gene::Int { .. } => hi - lo + 1.0,
        Gene::Cat { .. } | Gene::Bool => 2.0,
    };
    (n.ceil().min(MAX_AXIS_POINTS as f64) as usize).clamp(2, budget.clamp(2, MAX_AXIS_POINTS))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::genome::key;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn space() -> Space {
        Space {
            genes: vec![
                Gene::Real { lo: 0.0, hi: 1.0, step: None },
                Gene::Int { lo: 0, hi: 2 },
                Gene::Bool,
                Gene::Cat { n: 3 },
            ],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        }
    }

    #[test]
    fn grid_has_the_expected_shape_and_enumerates_every_point_once() {
        // 3 int values × 2 × 3 = 18 per real point; budget 200 → k = 11 real points (198).
        let grid = Grid::for_budget(&space(), 200);
        assert_eq!(grid.shape(), vec![11, 3, 2, 3]);
        assert_eq!(grid.len(), 198);
        let s = space();
        let mut keys: Vec<String> = (0..grid.len()).map(|i| key(&s, &grid.point(i))).collect();
        assert_eq!(keys[0], "0,0,0,0");
        assert_eq!(keys[197], "1,2,1,2");
        assert_eq!(keys[1], "0,0,0,1");
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), 198);
        let chunks: usize = (0..7).map(|c| grid.chunk(c * 30, 30).len()).sum();
        assert_eq!(chunks, 198);
    }

    #[test]
    fn grid_axes_respect_steps_and_integer_ranges() {
        let s = Space {
            genes: vec![Gene::Real { lo: 0.0, hi: 0.5, step: Some(0.1) }, Gene::Int { lo: 1, hi: 100 }],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        };
        assert_eq!(Grid::with_points(&s, 4).axes, vec![vec![0.0, 0.2, 0.3, 0.5], vec![1.0, 34.0, 67.0, 100.0]]);
        assert_eq!(Grid::with_points(&s, 50).shape(), vec![6, 50]);
        assert_eq!(Grid::for_budget(&s, 1500).len(), 6 * 100);
        assert_eq!(Grid::for_budget(&s, 3).len(), 4, "k = 2 even over budget");
    }

    #[test]
    fn random_baseline_respects_bounds() {
        let s = Space {
            genes: vec![
                Gene::Real { lo: -3.0, hi: 2.0, step: Some(0.5) },
                Gene::Int { lo: -4, hi: 9 },
                Gene::Cat { n: 4 },
            ],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        };
        let mut rng = StdRng::seed_from_u64(11);
        let genomes = random_generation(&s, 2000, &mut rng);
        for g in &genomes {
            for (gene, &x) in s.genes.iter().zip(g) {
                let (lo, hi) = gene.bounds();
                assert!((lo..=hi).contains(&x) && (gene.repair_value(x) - x).abs() < 1e-15);
            }
        }
        let hit = |i: usize, v: f64| genomes.iter().any(|g| (g[i] - v).abs() < 1e-12);
        assert!(hit(0, -3.0) && hit(0, 2.0) && hit(1, -4.0) && hit(1, 9.0) && hit(2, 3.0));
    }

    #[test]
    fn a_float_without_step_and_a_huge_budget_gives_a_capped_grid_at_once() {
        // Before the bisection this built every grid from k = 3 to the budget: minutes, then
        // an allocation of `budget` floats.
        let s = Space {
            genes: vec![Gene::Real { lo: 0.0, hi: 1.0, step: None }],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        };
        assert_eq!(Grid::for_budget(&s, usize::MAX).len(), MAX_AXIS_POINTS);
        assert_eq!(Grid::for_budget(&s, 12_345).len(), 12_345);
        assert_eq!(Grid::for_budget(&space(), 200).shape(), vec![11, 3, 2, 3]);
    }

    #[test]
    fn finite_spaces_count_their_settings() {
        let s = Space {
            genes: vec![Gene::Real { lo: 0.0, hi: 0.5, step: Some(0.1) }, Gene::Int { lo: 1, hi: 4 }, Gene::Bool],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        };
        assert_eq!(settings(&s), Some(6 * 4 * 2));
        assert_eq!(settings(&space()), None, "a float without a step is not finite");
    }
}
