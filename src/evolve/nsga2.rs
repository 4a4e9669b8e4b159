//! NSGA-II (Deb et al. 2002) over two objectives, mean precision and mean recall (both
//! maximised; `--objective pareto`): the parents and the last generation's children are pooled
//! (distinct genomes), sorted into non-dominated fronts, and the next parents are the first
//! fronts that fit, the last one cut by crowding distance (boundary points first). Children come
//! from binary tournaments on (front, crowding) with the GA's crossover and mutation. The
//! parents (genomes and both objectives) are the strategy's checkpoint state.

use super::config::Config;
use super::genome::{Genome, Space};
use super::problem::Fitness;
use super::strategy::{Strategy, floats, to_floats};
use crate::error::{Error, Result};
use rand::rngs::StdRng;

/// NSGA-II with `population` parents and children per generation.
#[derive(Debug, Clone)]
pub struct Nsga2 {
    config: Config,
    parents: Vec<(Genome, Fitness)>,
}

impl Nsga2 {
    /// NSGA-II with the GA's operators of `config`.
    pub fn new(config: Config) -> Nsga2 {
        Nsga2 { config, parents: Vec::new() }
    }
}

/// Whether `a` dominates `b` in (precision, recall): feasible first, then at least as good in
/// both and better in one. Partial (racing-dropped) evaluations are dominated by full ones.
pub fn dominates(a: &Fitness, b: &Fitness) -> bool {
    if a.feasible != b.feasible {
        return a.feasible;
    }
    if a.partial.is_some() != b.partial.is_some() {
        return a.partial.is_none();
    }
    a.precision >= b.precision && a.recall >= b.recall && (a.precision > b.precision || a.recall > b.recall)
}

/// The non-dominated fronts of `f` (indices, first front first, each in index order).
pub fn fronts(f: &[Fitness]) -> Vec<Vec<usize>> {
    let n = f.len();
    let mut count = vec![0usize; n];
    let mut beats: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in 0..n {
            if i != j && dominates(&f[i], &f[j]) {
                beats[i].push(j);
            } else if i != j && dominates(&f[j], &f[i]) {
                count[i] += 1;
            }
        }
    }
    let mut out = Vec::new();
    let mut current: Vec<usize> = (0..n).filter(|&i| count[i] == 0).collect();
    while !current.is_empty() {
        let mut next = Vec::new();
        for &i in &current {
            for &j in &beats[i] {
                count[j] -= 1;
                if count[j] == 0 {
                    next.push(j);
                }
            }
        }
        next.sort_unstable();
        out.push(std::mem::replace(&mut current, next));
    }
    out
}

/// Crowding distance of each member of `front` (same order): boundary points infinite.
pub fn crowding(f: &[Fitness], front: &[usize]) -> Vec<f64> {
    let mut d = vec![0.0; front.len()];
    let objectives: [fn(&Fitness) -> f64; 2] = [|x| x.precision, |x| x.recall];
    for obj in objectives {
        let mut order: Vec<usize> = (0..front.len()).collect();
        order.sort_by(|&a, &b| obj(&f[front[a]]).total_cmp(&obj(&f[front[b]])).then(a.cmp(&b)));
        let (lo, hi) = (obj(&f[front[order[0]]]), obj(&f[front[*order.last().unwrap_or(&0)]]));
        if let (Some(&first), Some(&last)) = (order.first(), order.last()) {
            d[first] = f64::INFINITY;
            d[last] = f64::INFINITY;
        }
        if hi > lo {
            for w in order.windows(3) {
                d[w[1]] += (obj(&f[front[w[2]]]) - obj(&f[front[w[0]]])) / (hi - lo);
            }
        }
    }
    d
}

/// Selects `n` of `pool` by front, then crowding distance; returns the chosen indices with a
/// tournament score (larger is better: `−front + crowding share`).
pub fn select(f: &[Fitness], n: usize) -> Vec<(usize, f64)> {
    let mut out = Vec::with_capacity(n);
    for (rank, front) in fronts(f).into_iter().enumerate() {
        if out.len() >= n {
            break;
        }
        let d = crowding(f, &front);
        let score = |k: usize| -(rank as f64) + if d[k].is_infinite() { 0.999 } else { 0.998 * d[k] / (1.0 + d[k]) };
        let mut members: Vec<usize> = (0..front.len()).collect();
        members.sort_by(|&a, &b| d[b].total_cmp(&d[a]).then(a.cmp(&b)));
        for k in members.into_iter().take(n - out.len()) {
            out.push((front[k], score(k)));
        }
    }
    out
}

impl Strategy for Nsga2 {
    fn initial(&mut self, space: &Space, n: usize, rng: &mut StdRng) -> Vec<Genome> {
        super::operators::random_generation(space, n, rng)
    }
    fn propose(&mut self, space: &Space, population: &[Genome], fitness: &[Fitness], rng: &mut StdRng) -> Vec<Genome> {
        let mut pool: Vec<(Genome, Fitness)> = std::mem::take(&mut self.parents);
        for (g, f) in population.iter().zip(fitness) {
            if !pool.iter().any(|(h, _)| h == g) {
                pool.push((g.clone(), *f));
            }
        }
        let fit: Vec<Fitness> = pool.iter().map(|p| p.1).collect();
        let chosen = select(&fit, self.config.population);
        self.parents = chosen.iter().map(|&(i, _)| pool[i].clone()).collect();
        let genomes: Vec<Genome> = self.parents.iter().map(|p| p.0.clone()).collect();
        let scores: Vec<Fitness> = chosen.iter().map(|&(_, s)| Fitness::of(s)).collect();
        let config = Config { elites: 0, ..self.config.clone() };
        super::ga::next_generation(space, &config, &genomes, &scores, rng)
    }
    fn save(&self) -> serde_json::Value {
        serde_json::json!({
            "genomes": self.parents.iter().map(|p| floats(&p.0)).collect::<Vec<_>>(),
            "objectives": self.parents.iter().map(|p| floats(&[p.1.precision, p.1.recall])).collect::<Vec<_>>(),
            "feasible": self.parents.iter().map(|p| p.1.feasible).collect::<Vec<_>>(),
        })
    }
    fn load(&mut self, state: &serde_json::Value) -> Result<()> {
        if state.is_null() {
            self.parents.clear();
            return Ok(());
        }
        let bad = || Error::config("the checkpoint's NSGA-II state is not a list of parents");
        let list = |k: &str| state.get(k).and_then(serde_json::Value::as_array).ok_or_else(bad);
        let (genomes, objectives, feasible) = (list("genomes")?, list("objectives")?, list("feasible")?);
        if genomes.len() != objectives.len() || genomes.len() != feasible.len() {
            return Err(bad());
        }
        self.parents = Vec::with_capacity(genomes.len());
        for ((g, o), f) in genomes.iter().zip(objectives).zip(feasible) {
            let o = to_floats(o)?;
            if o.len() != 2 {
                return Err(bad());
            }
            let fitness =
                Fitness { precision: o[0], recall: o[1], feasible: f.as_bool().ok_or_else(bad)?, ..Fitness::default() };
            self.parents.push((to_floats(g)?, fitness));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pr(p: f64, r: f64) -> Fitness {
        Fitness { precision: p, recall: r, feasible: true, ..Fitness::default() }
    }

    #[test]
    fn fronts_and_crowding_follow_deb() {
        let f = [pr(0.9, 0.1), pr(0.5, 0.5), pr(0.1, 0.9), pr(0.4, 0.4), pr(0.2, 0.2), pr(0.5, 0.5)];
        assert_eq!(fronts(&f), vec![vec![0, 1, 2, 5], vec![3], vec![4]]);
        let d = crowding(&f, &[0, 1, 2]);
        assert!(d[0].is_infinite() && d[2].is_infinite() && (d[1] - 2.0).abs() < 1e-12, "{d:?}");
        // Select 4: the whole first front (boundary points first), in crowding order.
        let s: Vec<usize> = select(&f, 4).into_iter().map(|x| x.0).collect();
        assert_eq!(s.len(), 4);
        assert!(s.contains(&0) && s.contains(&2));
        let s5: Vec<usize> = select(&f, 5).into_iter().map(|x| x.0).collect();
        assert_eq!(s5[4], 3);
    }

    #[test]
    fn the_front_moves_out_on_a_two_objective_toy() {
        use crate::evolve::{Gene, Problem, executor, generation_rng};
        // Two genes in [0, 1]; precision = x, recall = 1 − x², both penalised by y.
        struct Toy(Space);
        impl Problem for Toy {
            fn space(&self) -> &Space {
                &self.0
            }
            fn evaluate_batch(&mut self, genomes: &[Genome]) -> crate::error::Result<Vec<Fitness>> {
                Ok(genomes.iter().map(|g| pr(g[0] * (1.0 - g[1]), (1.0 - g[0] * g[0]) * (1.0 - g[1]))).collect())
            }
        }
        let real = Gene::Real { lo: 0.0, hi: 1.0, step: None };
        let mut toy =
            Toy(Space { genes: vec![real.clone(), real], correlated: vec![], conditions: vec![], ranks: vec![] });
        let config = Config {
            population: 20,
            max_generations: 30,
            patience: 0,
            seed: 4,
            strategy: crate::evolve::StrategyKind::Nsga2,
            ..Config::default()
        };
        let out = executor::run(&mut toy, &config, vec![], &[], &mut (), None).unwrap();
        let _ = generation_rng(1, 1);
        // The last generation lies near the true front (y = 0): mean y small, x spread out.
        let last: Vec<&crate::evolve::Trial> = out.trials.iter().filter(|t| t.generation == 29).collect();
        let mean_y = last.iter().map(|t| t.genome[1]).sum::<f64>() / last.len() as f64;
        let xs: Vec<f64> = last.iter().map(|t| t.genome[0]).collect();
        let spread = xs.iter().cloned().fold(0.0, f64::max) - xs.iter().cloned().fold(1.0, f64::min);
        assert!(mean_y < 0.1 && spread > 0.5, "mean y {mean_y}, spread {spread}");
    }
}
