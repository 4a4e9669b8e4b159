//! Reading a run folder back and writing its reports: the tables, the plots and `best.yaml`
//! (shared by a run's end, `cetune report` and `cetune compare`).

use crate::error::{Error, Result};
use crate::evolve::Trial;
use crate::params::{About, ParamSpace, Setting, settings_file};
use crate::report::plot::{HistoryInfo, Shade, StructureInfo, render_history, render_space, render_structure};
use crate::report::run::{generations_info, space_info, write_generations, write_top};
use crate::store::{self, RunRecord, files};
use std::path::Path;

/// The run record, its parameter space and the base setting (fixed parameters).
pub fn load_run(dir: &Path) -> Result<(RunRecord, ParamSpace, Setting)> {
    if !dir.join(files::RUN).exists() {
        return Err(Error::config("not a run folder: no run.yaml").with_path(dir));
    }
    let record: RunRecord = store::read_yaml(&dir.join(files::RUN))?;
    let space = crate::extract::parse_str(&record.params_yaml, &dir.join(files::RUN))?.space;
    let base = space.with_assignments(&space.defaults(), &record.sets)?;
    Ok((record, space, base))
}

/// Writes `generations.csv`, `top.csv`, `top.md`, `best.yaml` and the plots from the trials.
pub fn write_reports(
    dir: &Path,
    record: &RunRecord,
    space: &ParamSpace,
    base: &Setting,
    trials: &[Trial],
    top: usize,
) -> Result<()> {
    write_generations(&dir.join(files::GENERATIONS), trials)?;
    let title = format!(
        "{} on {} ({} documents), seed {}",
        record.extractor, record.goldset.name, record.goldset.documents, record.config.seed
    );
    write_top(dir, space, base, trials, top, &format!("Top individuals: {title}"))?;
    if let Some(best) = crate::report::run::top(trials, 1).first() {
        let s = space.from_genome(base, &best.genome);
        let about = About {
            fitness: best.fitness.value,
            precision: best.fitness.precision,
            recall: best.fitness.recall,
            objective: record.objective.clone(),
            goldset: record.goldset.name.clone(),
            run: dir.display().to_string(),
            structure: crate::params::combine::describe(space, &s),
        };
        let text = format!(
            "# The best individual of this run; use it with `cetune evaluate --params` or `cetune extract --params`.\n{}",
            settings_file(&s, Some(&about))?
        );
        crate::report::write_atomic(&dir.join("best.yaml"), text.as_bytes())?;
    }
    let rows = generations_info(trials).into_iter().map(|(r, _)| r).collect();
    render_history(&HistoryInfo { title: format!("Fitness by generation: {title}"), rows }, &dir.join("history"))?;
    let info = space_info(space, trials, &format!("Explored space: {title}"));
    render_space(&info, &dir.join("space"), Shade::Fitness)?;
    render_space(&info, &dir.join("space-generation"), Shade::Generation)?;
    let rows = crate::report::run::structure_info(space, base, trials);
    if !rows.is_empty() {
        let info = StructureInfo {
            title: format!("Members on, by generation: {title}"),
            members: space.members.clone(),
            rows,
        };
        render_structure(&info, &dir.join("structure"))?;
    }
    Ok(())
}
