//! Toy problems for the tests of the loop (and for callers' tests): no documents, no HTML.
//! Each counts its `evaluate_batch` calls and evaluated genomes.

use super::genome::{Gene, Genome, Space};
use super::problem::{Fitness, Problem};
use crate::error::Result;

/// A problem given by a fitness function over a space.
#[derive(Debug, Clone)]
pub struct Toy {
    space: Space,
    f: fn(&[f64]) -> Fitness,
    /// Number of `evaluate_batch` calls so far.
    pub calls: usize,
    /// Number of genomes evaluated so far.
    pub evaluations: usize,
}

impl Toy {
    /// A problem over `space` with fitness `f`.
    pub fn new(space: Space, f: fn(&[f64]) -> Fitness) -> Toy {
        Toy { space, f, calls: 0, evaluations: 0 }
    }

    /// OneMax over `n` Bool genes: the share of ones (optimum 1).
    pub fn one_max(n: usize) -> Toy {
        let f = |g: &[f64]| Fitness::of(g.iter().sum::<f64>() / g.len() as f64);
        Toy::new(Space { genes: vec![Gene::Bool; n], correlated: vec![], conditions: vec![], ranks: vec![] }, f)
    }

    /// Sphere over `n` Real genes in [−5, 5]: `−Σ(xᵢ − 1)²` (optimum 0 at xᵢ = 1).
    pub fn sphere(n: usize) -> Toy {
        let f = |g: &[f64]| Fitness::of(-g.iter().map(|x| (x - 1.0) * (x - 1.0)).sum::<f64>());
        Toy::new(
            Space {
                genes: vec![Gene::Real { lo: -5.0, hi: 5.0, step: None }; n],
                correlated: vec![],
                conditions: vec![],
                ranks: vec![],
            },
            f,
        )
    }

    /// A mixed space (stepped Real and Int correlated, Cat, Bool). The optimum 1.5 is at
    /// (0.3, 70, 2, 1); genomes with the categorical value 3 are infeasible (value +10).
    pub fn mixed() -> Toy {
        let space = Space {
            genes: vec![
                Gene::Real { lo: 0.0, hi: 1.0, step: Some(0.01) },
                Gene::Int { lo: 0, hi: 100 },
                Gene::Cat { n: 4 },
                Gene::Bool,
            ],
            correlated: vec![vec![0, 1]],
            conditions: vec![],
            ranks: vec![],
        };
        Toy::new(space, mixed_fitness)
    }
}

fn mixed_fitness(g: &[f64]) -> Fitness {
    let (x, i, c, b) = (g[0], g[1], g[2].round() as usize, g[3]);
    let smooth = 1.0 - (x - 0.3).powi(2) - ((i - 70.0) / 100.0).powi(2);
    let bonus = match c {
        2 => 0.25,
        3 => 10.0,
        _ => 0.0,
    };
    let value = smooth + bonus + b * 0.25;
    Fitness { value, feasible: c != 3, precision: x, recall: i / 100.0, ms: 0.0, partial: None, sem: 0.0 }
}

impl Problem for Toy {
    fn space(&self) -> &Space {
        &self.space
    }

    fn evaluate_batch(&mut self, genomes: &[Genome]) -> Result<Vec<Fitness>> {
        self.calls += 1;
        self.evaluations += genomes.len();
        Ok(genomes.iter().map(|g| (self.f)(g)).collect())
    }
}
