//! The general model, cetune's default extractor: a family fitted on gold ([`super::fit::Fit`];
//! `params/general.yaml` names it) fitted on every public gold page at hand by `cetune model build` (`params/general.yaml` records the command and the sets),
//! compiled into the binary so that `extract` with no flags, the Python `Extractor()` and
//! `annotate`'s pre-fill apply it from anywhere, without a file.

use super::fit::{self, Fit, Model};
use crate::error::{Error, Result};
use crate::params::{ParamSpace, Setting};
use std::path::Path;
use std::sync::Arc;

/// The name that selects it (`-e general`, `Extractor("general")`).
pub const NAME: &str = "general";

/// The settings file, as `model build` wrote it.
pub const YAML: &str = include_str!("../../params/general.yaml");

/// The model file it names.
pub const MODEL: &str = include_str!("../../params/general.model");

/// Where the compiled-in settings are read from: a path no file has, so the model they name
/// (`<built-in>/general.model`) is the compiled-in one, whatever the working folder holds.
const AT: &str = "<built-in>/general.yaml";

/// A folder written by `cetune model build` (its `general.yaml` and `general.model`) that stands
/// in for the compiled-in general model wherever it applies: the default extractor, `-e
/// general` and `start: general` (an organisation's own general model, or one fitted without
/// the pages being measured), without rebuilding the binary.
pub const ENV: &str = "CETUNE_GENERAL_MODEL";

/// The parameter space (its family's) and the general model's setting; the compiled-in model
/// it names is found by its path ([`builtin`]). A damaged compiled-in model is an error naming
/// it when the extractor is built (a unit test reads it at build time). `engine` reads a
/// `CETUNE_GENERAL_MODEL` folder's settings as a file the user names.
pub fn setting(engine: &super::Engine) -> Result<(ParamSpace, Setting)> {
    if let Some(dir) = std::env::var_os(ENV).filter(|d| !d.is_empty()) {
        let yaml = Path::new(&dir).join("general.yaml");
        let file =
            super::load_file(engine, &yaml).map_err(|e| Error { message: format!("{ENV}: {}", e.message), ..e })?;
        if super::fit_of(&file.setting.extractor).is_none() || file.setting.model.is_none() {
            return Err(
                Error::config(format!("{ENV}: not a general model (model build's general.yaml)")).with_path(&yaml)
            );
        }
        return Ok((file.space, file.setting));
    }
    let file = compiled()?;
    file.setting.model.as_ref().ok_or_else(|| Error::config("params/general.yaml names no model"))?;
    Ok((file.space, file.setting))
}

/// The compiled-in settings file.
fn compiled() -> Result<crate::params::ParamsFile> {
    super::parse_str(YAML, Path::new(AT)).map_err(|e| e.with_path(Path::new("params/general.yaml")))
}

/// The compiled-in model when `path` is the one the compiled-in settings name, read once and
/// checked against them: immutable data of the binary, like a pattern table, so a static holds
/// it (a model file the user names is read by an engine, [`super::fit::ModelCache`]).
pub fn builtin(path: &Path) -> Option<Result<Arc<dyn Model>>> {
    type Read = (Option<std::path::PathBuf>, Result<Arc<dyn Model>>);
    static BUILTIN: std::sync::LazyLock<Read> = std::sync::LazyLock::new(|| {
        let file = match compiled() {
            Ok(f) => f,
            Err(e) => return (None, Err(e)),
        };
        let model = (|| {
            let at = Path::new("params/general.model");
            let fit = fit_of(&file.setting)?;
            let model = fit.read(MODEL).map_err(|e| e.with_path(at))?;
            fit::check(model.as_ref(), &fit.key(&file.setting), at)?;
            Ok(model)
        })();
        (file.setting.model.clone(), model)
    });
    let (at, model) = &*BUILTIN;
    (at.as_deref() == Some(path)).then(|| model.clone())
}

/// The family the compiled-in general model fits (what `model build` fits by default).
pub fn family() -> Result<String> {
    Ok(compiled()?.setting.extractor)
}

/// How the general model's setting `s` is fitted.
fn fit_of(s: &Setting) -> Result<&'static dyn Fit> {
    super::fit_of(&s.extractor)
        .ok_or_else(|| Error::config(format!("the general model's family '{}' fits nothing", s.extractor)))
}

/// The general model's fitted model (what `start: general` continues from). A
/// `CETUNE_GENERAL_MODEL` folder's model is read on each call, with an engine of its own (a
/// fit asks for it once per setting fitted).
pub fn model() -> Result<Arc<dyn Model>> {
    let engine = super::Engine::default();
    let (_, s) = setting(&engine)?;
    let path = s.model.clone().ok_or_else(|| Error::config("the general model names no model file"))?;
    let fit = fit_of(&s)?;
    engine.models().load(fit, &path, &fit.key(&s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;
    use crate::limits::Limits;

    #[test]
    fn the_embedded_general_model_reads_builds_and_keeps_an_article_body() {
        let engine = crate::extract::Engine::default();
        let (space, s) = setting(&engine).unwrap();
        assert_eq!(space.extractor, s.extractor);
        assert!(crate::extract::fit_of(&s.extractor).is_some(), "a family fitted on gold");
        assert_eq!(family().unwrap(), s.extractor);
        let ex = crate::extract::build(&engine, &s).unwrap();
        let body = "The committee met on Tuesday to discuss the new budget for the city's schools. ".repeat(12);
        let html = format!(
            "<html><head><title>Budget</title></head><body><nav><a href='/'>Home</a> <a href='/news'>News</a> \
             <a href='/sport'>Sport</a></nav><article><h1>Schools budget agreed</h1><p>{body}</p><p>{body}</p></article>\
             <footer>Copyright 2026 Example News. All rights reserved. <a href='/privacy'>Privacy</a></footer></body></html>"
        );
        let (doc, _) = Document::parse_for(&html, &Limits::default(), ex.needs());
        let text = crate::extract::extract_text(ex.as_ref(), &doc).unwrap();
        assert!(text.contains("Schools budget agreed") || text.contains("The committee met"), "{text}");
        assert!(!text.contains("All rights reserved"), "the footer is boilerplate: {text}");
    }
}
