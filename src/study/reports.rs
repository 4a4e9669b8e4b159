//! Reading a run folder back and writing its reports: the tables, the plots and `best.yaml`
//! (shared by a run's end, `cetune report` and `cetune compare`).

use crate::error::{Error, Result};
use crate::evolve::Trial;
use crate::params::{ParamSpace, Setting, Value};
use crate::report::plot::{HistoryInfo, Shade, render_history, render_space};
use crate::report::run::{generations_info, space_info, write_generations, write_top};
use crate::store::{self, RunRecord, files};
use serde::Serialize;
use serde::ser::SerializeMap;
use std::path::Path;

/// `best.yaml`: a settings file (`extractor` and `values`) with where the setting comes from.
#[derive(Serialize)]
struct BestFile<'a> {
    extractor: &'a str,
    values: Values<'a>,
    about: BestAbout<'a>,
}

#[derive(Serialize)]
struct BestAbout<'a> {
    fitness: f64,
    precision: f64,
    recall: f64,
    objective: &'a str,
    goldset: &'a str,
    run: String,
}

/// A setting's values as a YAML mapping in parameter order.
struct Values<'a>(&'a [(String, Value)]);

impl Serialize for Values<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            match v {
                Value::Float(x) => m.serialize_entry(k, x)?,
                Value::Int(x) => m.serialize_entry(k, x)?,
                Value::Bool(x) => m.serialize_entry(k, x)?,
                Value::Cat(x) => m.serialize_entry(k, x)?,
            }
        }
        m.end()
    }
}

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
    write_top(dir, space, trials, top, &format!("Top individuals: {title}"))?;
    if let Some(best) = crate::report::run::top(trials, 1).first() {
        let s = space.from_genome(base, &best.genome);
        let about = BestAbout {
            fitness: best.fitness.value,
            precision: best.fitness.precision,
            recall: best.fitness.recall,
            objective: &record.objective,
            goldset: &record.goldset.name,
            run: dir.display().to_string(),
        };
        let doc = BestFile { extractor: &record.extractor, values: Values(&s.values), about };
        let text = format!(
            "# The best individual of this run; use it with `cetune evaluate --params` or `cetune extract --params`.\n{}",
            crate::yaml::to_string(&doc)?
        );
        crate::report::write_atomic(&dir.join("best.yaml"), text.as_bytes())?;
    }
    let rows = generations_info(trials).into_iter().map(|(r, _)| r).collect();
    render_history(&HistoryInfo { title: format!("Fitness by generation: {title}"), rows }, &dir.join("history"))?;
    let info = space_info(space, trials, &format!("Explored space: {title}"));
    render_space(&info, &dir.join("space"), Shade::Fitness)?;
    render_space(&info, &dir.join("space-generation"), Shade::Generation)?;
    Ok(())
}
