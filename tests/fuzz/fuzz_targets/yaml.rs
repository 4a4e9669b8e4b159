//! Any bytes as each YAML file cetune reads: a parameter file (then its space is sampled,
//! mutated, recombined and decoded as the optimiser would), `goldset.yaml`, `run.yaml` (then its
//! embedded parameter description, settings and objective) and `checkpoint.yaml`. Nothing may
//! panic, hang or overflow the stack.
#![no_main]

use cetune::evolve::operators::{crossover, mutate, random_genome};
use cetune::evolve::{Config, State, generation_rng};
use cetune::objective::problem::{Objective, gene_space};
use cetune::extract::parse_str;
use cetune::params::ParamSpace;
use cetune::store::{Checkpoint, RunRecord, from_str};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

/// What `optimise` does with a loaded space, with the widest operator settings allowed.
fn exercise(space: &ParamSpace) {
    let _ = cetune::extract::build(&cetune::extract::Engine::default(), &space.defaults());
    let genes = gene_space(space);
    if genes.validate().is_err() {
        return;
    }
    let config = Config { blx_alpha: 10.0, mutation_sigma: 10.0, ..Config::default() };
    let mut rng = generation_rng(1, 1);
    let a = random_genome(&genes, &mut rng);
    let b = random_genome(&genes, &mut rng);
    let (mut c, _) = crossover(&genes, &config, &a, &b, &mut rng);
    mutate(&genes, &config, &mut c, &mut rng);
    let s = space.from_genome(&space.defaults(), &c);
    let _ = space.check_setting(&s);
    for k in &space.known_good {
        let _ = space.to_genome(&k.setting);
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = Path::new("f.yaml");
    if let Ok(f) = parse_str(&text, path) {
        exercise(&f.space);
    }
    let _ = cetune::goldset::native::parse_manifest(&text, path);
    if let Ok(r) = from_str::<RunRecord>(&text, path) {
        let _ = r.config.validate();
        let _ = r.objective.parse::<Objective>();
        if let Ok(f) = parse_str(&r.params_yaml, path) {
            let _ = f.space.with_assignments(&f.space.defaults(), &r.sets);
        }
    }
    if let Ok(c) = from_str::<Checkpoint<State>>(&text, path) {
        let _ = c.state.check_resumable(&Config::default(), c.state.population.first().map_or(0, Vec::len));
    }
});
