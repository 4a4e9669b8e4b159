//! What a multi-fidelity run spent ([`crate::store::FidelityRecord`]): each generation's fidelity,
//! the settings promoted to it, the document evaluations saved; `run.yaml` keeps it, and the
//! run's report shows it as a table.

use crate::evolve::Trial;
use crate::report::html::{Body, Section};
use crate::store::{FidelityRecord, RungRecord};
use std::collections::HashMap;

/// The record of a run over `n` training documents whose trials are `trials` (the whole run).
pub fn record(trials: &[Trial], n: usize) -> FidelityRecord {
    let docs = |t: &Trial| t.fitness.partial.unwrap_or(n);
    // The most documents each setting was scored on so far, by its genome's bits.
    let mut seen: HashMap<Vec<u64>, usize> = HashMap::new();
    let mut rungs: Vec<RungRecord> = Vec::new();
    let (mut evaluations, mut full, mut promotions, mut used) = (0, 0, 0, 0);
    for t in trials {
        let bits: Vec<u64> = t.genome.iter().map(|x| x.to_bits()).collect();
        let before = seen.get(&bits).copied();
        let k = docs(t);
        let promoted = before.is_some_and(|b| b < k);
        if !t.cached {
            evaluations += 1;
            full += usize::from(t.fitness.partial.is_none());
            promotions += usize::from(promoted);
            used += k - before.filter(|_| promoted).unwrap_or(0);
        }
        seen.insert(bits, before.map_or(k, |b| b.max(k)));
        if rungs.last().is_none_or(|r| r.generation != t.generation) {
            rungs.push(RungRecord {
                generation: t.generation,
                documents: k,
                fidelity: k as f64 / n.max(1) as f64,
                settings: 0,
                promoted: 0,
                best: f64::NEG_INFINITY,
            });
        }
        if let Some(r) = rungs.last_mut() {
            r.settings += 1;
            r.promoted += usize::from(promoted);
            r.documents = r.documents.max(k);
            r.fidelity = r.documents as f64 / n.max(1) as f64;
            r.best = r.best.max(t.fitness.value);
        }
    }
    FidelityRecord {
        strategy: format!(
            "hyperband (η = {}, brackets s = {}…0, Li et al. 2018)",
            crate::evolve::hyperband::ETA,
            crate::evolve::hyperband::S_MAX
        ),
        evaluations,
        full_evaluations: full,
        promotions,
        document_evaluations: used,
        without_fidelities: evaluations * n,
        rungs,
    }
}

/// The report's section on the fidelities of a run.
pub fn section(r: &FidelityRecord) -> Section {
    let rows = r
        .rungs
        .iter()
        .map(|g| {
            vec![
                g.generation.to_string(),
                g.documents.to_string(),
                format!("{:.3}", g.fidelity),
                g.settings.to_string(),
                g.promoted.to_string(),
                format!("{:.4}", g.best),
            ]
        })
        .collect();
    let head = ["generation", "documents", "fidelity", "settings", "promoted", "best at this fidelity"];
    Section {
        title: "Fidelities and promotions".into(),
        body: vec![
            Body::Text(format!(
                "{}: {} settings scored, {} of them on every document; {} promoted to a higher fidelity; {} document \
                 evaluations instead of {} ({:.0} % saved). Only full evaluations compete for the best; \
                 individuals.csv has a row for each setting at each fidelity (its fidelity column).",
                r.strategy,
                r.evaluations,
                r.full_evaluations,
                r.promotions,
                r.document_evaluations,
                r.without_fidelities,
                100.0 * (1.0 - r.document_evaluations as f64 / r.without_fidelities.max(1) as f64)
            )),
            Body::Table(head.map(String::from).to_vec(), rows),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::Fitness;

    #[test]
    fn promotions_count_only_their_new_documents() {
        let t = |number: usize, generation: usize, g: f64, partial: Option<usize>, cached: bool| Trial {
            number,
            generation,
            genome: vec![g],
            fitness: Fitness { partial, ..Fitness::of(g) },
            cached,
        };
        // Three settings on 10 of 90 documents; the best goes on to 30, then to all 90.
        let trials = [
            t(0, 0, 0.1, Some(10), false),
            t(1, 0, 0.2, Some(10), false),
            t(2, 0, 0.3, Some(10), false),
            t(3, 1, 0.3, Some(30), false),
            t(4, 2, 0.3, None, false),
            t(5, 3, 0.3, None, true),
        ];
        let r = record(&trials, 90);
        assert_eq!((r.evaluations, r.full_evaluations, r.promotions), (5, 1, 2));
        assert_eq!((r.document_evaluations, r.without_fidelities), (30 + 20 + 60, 450));
        let rungs: Vec<(usize, usize, usize)> = r.rungs.iter().map(|g| (g.documents, g.settings, g.promoted)).collect();
        assert_eq!(rungs, vec![(10, 3, 0), (30, 1, 1), (90, 1, 1), (90, 1, 0)]);
    }
}
