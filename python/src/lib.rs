//! `cetune._cetune`: the Python face of the cetune library. `Extractor` runs any family,
//! combination or external extractor on pages (`extract_many` in parallel with the GIL
//! released), `score` scores a text against a gold text, `evaluate` scores a setting over a gold
//! set per document, `space` describes a parameter space for the Optuna bridge. Errors are
//! cetune's one-line messages: `OSError` for files, `ValueError` for bad input or configuration,
//! `RuntimeError` for a page the extractor failed on.
//!
//! Each `Extractor` (and each `evaluate` or `space` call) builds with an engine of its own
//! ([`extract::Engine::default`], which trusts every external command: the program wrote the
//! call), not one per module: the model files its parameters name are read when it is made, so
//! a notebook that refits a model and makes a new `Extractor` gets the new one, and an external
//! extractor's workers live as long as the object and stop with it. One object reads its model
//! once and shares one worker pool between the threads of `extract_many`.

use cetune::document::Document;
use cetune::error::{Error, ErrorKind, isolate};
use cetune::extract;
use cetune::limits::Limits;
use cetune::params::{ParamSpace, Setting, Spec, Value};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use std::path::Path;

/// cetune's error as a Python exception with its one-line message.
fn py_err(e: Error) -> PyErr {
    match e.kind {
        ErrorKind::Io | ErrorKind::Input => PyOSError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// A Python value as the text `--set name=value` takes.
fn set_text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = v.extract::<bool>() {
        return Ok(b.to_string());
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(s.to_string());
    }
    Ok(v.str()?.to_string())
}

/// A page as given, `str` or `bytes`, copied out of Python so that it can be decoded without the
/// GIL (in `extract_many`, on the worker threads).
enum Page {
    Bytes(Vec<u8>),
    Text(String),
}

impl Page {
    fn of(page: &Bound<'_, PyAny>) -> PyResult<Page> {
        if let Ok(b) = page.cast::<PyBytes>() {
            return Ok(Page::Bytes(b.as_bytes().to_vec()));
        }
        page.extract().map(Page::Text).map_err(|_| PyValueError::new_err("a page is str or bytes"))
    }

    /// The page decoded as cetune decodes pages (BOM, declared charset, detection), line
    /// endings normalised.
    fn text(self) -> String {
        match self {
            Page::Bytes(b) => cetune::goldset::decode::decode(&b).0,
            Page::Text(s) => cetune::goldset::decode::normalise_newlines(s),
        }
    }
}

/// A configured extractor: a family by name with parameter overrides, or a parameter file
/// (a `params/*.yaml` description, a run's `best.yaml`, an external extractor's file).
#[pyclass(module = "cetune._cetune", frozen)]
struct Extractor {
    ex: Box<dyn cetune::extract::Extractor>,
    setting: Setting,
    limits: Limits,
    /// The confidence model (`cetune confidence`), when one was given.
    model: Option<cetune::objective::confidence::Model>,
}

/// What `extract_result` gives for one page: its text, its confidence (an estimate of its F1,
/// None without a confidence model) and its words. `str()` of it is the text.
#[pyclass(module = "cetune._cetune", frozen, get_all)]
struct Extracted {
    /// The main text.
    text: String,
    /// The estimate of the page's F1 in (0, 1), or None without a confidence model.
    confidence: Option<f64>,
    /// Evaluation words of the text (runs of letters and digits).
    words: usize,
}

#[pymethods]
impl Extracted {
    fn __str__(&self) -> String {
        self.text.clone()
    }
    fn __repr__(&self) -> String {
        let c = self.confidence.map_or("None".to_string(), |c| format!("{c:.4}"));
        format!("Extracted(words={}, confidence={c})", self.words)
    }
}

/// What `extract` returns: the text, the Markdown, the clean HTML, or a JSON record (text,
/// Markdown and the page's metadata).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Txt,
    Markdown,
    Html,
    Json,
}

impl Format {
    fn of(s: &str) -> PyResult<Format> {
        match s {
            "txt" => Ok(Format::Txt),
            "markdown" => Ok(Format::Markdown),
            "html" => Ok(Format::Html),
            "json" => Ok(Format::Json),
            _ => Err(PyValueError::new_err(format!("unknown format '{s}' (known: txt, markdown, html, json)"))),
        }
    }
}

/// How `extract` writes a page: the format, and links and images in Markdown and HTML.
#[derive(Debug, Clone, Copy)]
struct Output {
    format: Format,
    opts: cetune::structure::Options,
}

impl Output {
    /// Plain text, no links or images.
    const TEXT: Output =
        Output { format: Format::Txt, opts: cetune::structure::Options { links: false, images: false } };

    fn layout(&self) -> cetune::structure::Layout {
        cetune::structure::Layout {
            markdown: matches!(self.format, Format::Markdown | Format::Json),
            html: self.format == Format::Html,
            metadata: self.format == Format::Json,
            opts: self.opts,
        }
    }
}

impl Extractor {
    /// The output of one decoded page (its URL, when known, goes to an external worker) and its
    /// confidence with a model, or why there is none: the text, Markdown or HTML, or a JSON
    /// record's text.
    fn run_with_confidence(&self, html: &str, url: Option<&str>, out: Output) -> Result<(String, Option<f64>), String> {
        let layout = out.layout();
        let needs = self.ex.needs() | layout.needs();
        let limits = &self.limits;
        let parsed = isolate(|| Document::parse_for(html, limits, needs));
        let Ok((mut doc, _)) = parsed else { return Err("the HTML parser failed on this page".into()) };
        if doc.html.is_some() {
            doc.url = url.map(str::to_string).or_else(|| cetune::goldset::url::head_url(html)).map(Into::into);
        }
        let run = || {
            let sel = extract::extract_selection(self.ex.as_ref(), &doc)?;
            let text = doc.render(&sel);
            let confidence =
                self.model.as_ref().map(|m| m.predict(&cetune::objective::confidence::signals(&doc, &sel, &text)));
            Ok::<_, extract::Failure>((sel, text, confidence))
        };
        let (sel, text, confidence) = match isolate(run) {
            Ok(Ok(r)) => r,
            Ok(Err(failure)) => return Err(failure.to_string()),
            Err(_) => return Err("the extractor failed on this page".into()),
        };
        let structure =
            |f: &dyn Fn() -> String| isolate(f).map_err(|_| "the structured output failed on this page".to_string());
        let written = match out.format {
            Format::Txt => text,
            Format::Markdown => structure(&|| cetune::structure::markdown(&doc, &sel, out.opts))?,
            Format::Html => structure(&|| cetune::structure::html(&doc, &sel, out.opts))?,
            Format::Json => {
                let mut words = 0;
                cetune::eval::words::for_each_token(&text, Default::default(), |_| words += 1);
                let o = cetune::collect::Outcome {
                    url: url.map(str::to_string).or_else(|| cetune::goldset::url::head_url(html)),
                    markdown: Some(structure(&|| cetune::structure::markdown(&doc, &sel, out.opts))?),
                    metadata: Some(cetune::structure::meta::read(html, doc.lang.as_deref(), doc.url.as_deref())),
                    language: doc.lang.clone(),
                    confidence,
                    text,
                    words,
                    ..Default::default()
                };
                String::from_utf8_lossy(&cetune::collect::output::json_record(&o, true)).into_owned()
            }
        };
        Ok((written, confidence))
    }

    /// The output of one decoded page, or why there is none.
    fn run(&self, html: &str, url: Option<&str>, out: Output) -> Result<String, String> {
        self.run_with_confidence(html, url, out).map(|(written, _)| written)
    }
}

/// A JSON record's text as a Python dict (without the collection's `id` and `error`).
fn record_py<'py>(py: Python<'py>, line: &str) -> PyResult<Bound<'py, PyAny>> {
    let d = py.import("json")?.call_method1("loads", (line,))?;
    for k in ["id", "error"] {
        d.del_item(k)?;
    }
    Ok(d)
}

#[pymethods]
impl Extractor {
    /// Extractor(name=None, *, params=None, confidence=None, **overrides): a family or
    /// combination by name (`"readability"`), a parameter file (`params="best.yaml"`), or with
    /// neither the general model (`"general"`, the default), with parameter overrides as keyword
    /// arguments (`t=0.3`, `**{"lqf.t": 0.3}`); `confidence`, a confidence model fitted for the
    /// setting (`cetune confidence`), gives `extract_result` its confidence.
    #[new]
    #[pyo3(signature = (name=None, *, params=None, confidence=None, **overrides))]
    fn new(
        name: Option<&str>,
        params: Option<std::path::PathBuf>,
        confidence: Option<std::path::PathBuf>,
        overrides: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let engine = extract::Engine::default();
        let (space, base) = resolve(&engine, name, params.as_deref())?;
        let mut sets = Vec::new();
        if let Some(o) = overrides {
            for (k, v) in o.iter() {
                sets.push(format!("{}={}", k.extract::<String>()?, set_text(&v)?));
            }
        }
        let setting = space.with_assignments(&base, &sets).map_err(py_err)?;
        let ex = extract::build(&engine, &setting).map_err(py_err)?;
        let model =
            confidence.map(|p| cetune::objective::confidence::Model::read(&p, &setting)).transpose().map_err(py_err)?;
        Ok(Extractor { ex, setting, limits: Limits::default(), model })
    }

    /// The extractor's registry name (`readability`, `external`, a combination's name).
    #[getter]
    fn name(&self) -> String {
        self.setting.extractor.clone()
    }

    /// The setting: every parameter's value, in the order of the space.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (n, v) in &self.setting.values {
            d.set_item(n, value_py(py, v)?)?;
        }
        Ok(d)
    }

    /// extract(html, url=None, format="txt", links=False, images=False) -> str | dict: the main
    /// text of one page (`str` or `bytes`), or its kept elements as Markdown (`format="markdown"`)
    /// or a clean HTML fragment (`"html"`), links and images included when asked for, or a dict
    /// (`"json"`: `url`, `text`, `markdown`, `words`, `language` and the metadata fields `title`,
    /// `author`, `date`, `sitename`, `canonical_url`, `metadata_language`, each `{"value",
    /// "source"}` or None); `url` (else the one the page declares in its head) goes to an
    /// external extractor's worker.
    #[pyo3(signature = (html, url=None, format="txt", links=false, images=false))]
    fn extract<'py>(
        &self,
        py: Python<'py>,
        html: &Bound<'py, PyAny>,
        url: Option<&str>,
        format: &str,
        links: bool,
        images: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let out = Output { format: Format::of(format)?, opts: cetune::structure::Options { links, images } };
        let page = Page::of(html)?;
        let r = py.detach(|| self.run(&page.text(), url, out)).map_err(PyRuntimeError::new_err)?;
        match out.format {
            Format::Json => record_py(py, &r),
            _ => Ok(PyString::new(py, &r).into_any()),
        }
    }

    /// extract_result(html, url=None) -> Extracted: as `extract`, with the page's confidence
    /// (None without a confidence model) and words.
    #[pyo3(signature = (html, url=None))]
    fn extract_result(&self, py: Python<'_>, html: &Bound<'_, PyAny>, url: Option<&str>) -> PyResult<Extracted> {
        let page = Page::of(html)?;
        let (text, confidence) =
            py.detach(|| self.run_with_confidence(&page.text(), url, Output::TEXT)).map_err(PyRuntimeError::new_err)?;
        let mut words = 0;
        cetune::eval::words::for_each_token(&text, cetune::eval::words::TokenRule::default(), |_| words += 1);
        Ok(Extracted { text, confidence, words })
    }

    /// extract_many(pages, threads=None, urls=None, format="txt", links=False, images=False)
    /// -> list: the main text (or `extract`'s other formats) of each page, in order, extracted in
    /// parallel on `threads` threads (default: one per core) with the GIL released; `urls`, one
    /// per page (or None), as `extract`'s `url`. A page the extractor fails on raises
    /// RuntimeError naming its index.
    #[pyo3(signature = (pages, threads=None, urls=None, format="txt", links=false, images=false))]
    #[allow(clippy::too_many_arguments)]
    fn extract_many<'py>(
        &self,
        py: Python<'py>,
        pages: &Bound<'py, PyAny>,
        threads: Option<usize>,
        urls: Option<&Bound<'py, PyAny>>,
        format: &str,
        links: bool,
        images: bool,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let out = Output { format: Format::of(format)?, opts: cetune::structure::Options { links, images } };
        let mut texts = Vec::new();
        for p in pages.try_iter()? {
            texts.push(Page::of(&p?)?);
        }
        let urls = match urls {
            None => vec![None; texts.len()],
            Some(us) => {
                let mut out = Vec::new();
                for u in us.try_iter()? {
                    let u = u?;
                    let url = if u.is_none() {
                        None
                    } else {
                        Some(u.extract::<String>().map_err(|_| {
                            PyValueError::new_err(format!("urls: item {} is neither a str nor None", out.len()))
                        })?)
                    };
                    out.push(url);
                }
                out
            }
        };
        if urls.len() != texts.len() {
            let msg = format!("urls: {} given for {} pages", urls.len(), texts.len());
            return Err(PyValueError::new_err(msg));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(0))
            .build()
            .map_err(|e| PyValueError::new_err(format!("threads: {e}")))?;
        let results: Vec<Result<String, String>> = py.detach(|| {
            use rayon::prelude::*;
            pool.install(|| {
                texts.into_par_iter().zip(&urls).map(|(t, u)| self.run(&t.text(), u.as_deref(), out)).collect()
            })
        });
        let format = out.format;
        results
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                let r = r.map_err(|m| PyRuntimeError::new_err(format!("page {i}: {m}")))?;
                match format {
                    Format::Json => record_py(py, &r),
                    _ => Ok(PyString::new(py, &r).into_any()),
                }
            })
            .collect()
    }

    fn __repr__(&self) -> String {
        format!("Extractor({:?}, {})", self.setting.extractor, self.setting.label())
    }
}

/// The space and base setting of a name or a file.
fn resolve(engine: &extract::Engine, name: Option<&str>, params: Option<&Path>) -> PyResult<(ParamSpace, Setting)> {
    match (name, params) {
        (None, Some(p)) | (Some(_), Some(p)) => {
            if !p.exists() {
                return Err(pyo3::exceptions::PyFileNotFoundError::new_err(format!(
                    "{}: parameter file not found",
                    p.display()
                )));
            }
            let f = extract::load_file(engine, p).map_err(py_err)?;
            if let Some(n) = name.filter(|n| *n != f.space.extractor) {
                let msg = format!("{n} disagrees with {}, which is for '{}'", p.display(), f.space.extractor);
                return Err(PyValueError::new_err(msg));
            }
            Ok((f.space, f.setting))
        }
        (Some(n), None) => extract::named(engine, n).map_err(py_err),
        // No name: the general model, as `cetune extract` with no flags.
        (None, None) => extract::named(engine, extract::general::NAME).map_err(py_err),
    }
}

fn value_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Float(x) => x.into_pyobject(py)?.into_any(),
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Cat(c) => c.into_pyobject(py)?.into_any(),
    })
}

/// score(gold, text, measure="lcs") -> (precision, recall, f1): the text scored against the
/// gold text by cetune's measure (`lcs`, `bow` or `shingle4`), exactly as `cetune score` does.
#[pyfunction]
#[pyo3(signature = (gold, text, measure="lcs"))]
fn score(gold: &str, text: &str, measure: &str) -> PyResult<(f64, f64, f64)> {
    let m: cetune::eval::Measure = measure.parse().map_err(|e: String| PyValueError::new_err(e))?;
    let (s, _, _) = cetune::eval::text::score_text(text, gold, Default::default(), m);
    Ok((s.precision, s.recall, s.f1))
}

/// evaluate(goldset, params, measure="lcs", **overrides) -> list[dict]: one dict per document
/// of a gold set in cetune's native format (`package`, `id`, `precision`, `recall`, `f1`,
/// `extract_words`, `gold_words`, `error`); `params` is a family name or a parameter file.
#[pyfunction]
#[pyo3(signature = (goldset, params, measure="lcs", **overrides))]
fn evaluate<'py>(
    py: Python<'py>,
    goldset: std::path::PathBuf,
    params: &str,
    measure: &str,
    overrides: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    let file = Path::new(params);
    let engine = extract::Engine::default();
    let (space, base) =
        if file.is_file() { resolve(&engine, None, Some(file))? } else { resolve(&engine, Some(params), None)? };
    let mut sets = Vec::new();
    if let Some(o) = overrides {
        for (k, v) in o.iter() {
            sets.push(format!("{}={}", k.extract::<String>()?, set_text(&v)?));
        }
    }
    let setting = space.with_assignments(&base, &sets).map_err(py_err)?;
    let m: cetune::eval::Measure = measure.parse().map_err(|e: String| PyValueError::new_err(e))?;
    let ex = extract::build(&engine, &setting).map_err(py_err)?;
    let set = cetune::goldset::native::open(&goldset, false).map_err(py_err)?;
    let docs: Vec<_> = set.docs.iter().collect();
    let scores = py.detach(|| cetune::objective::stream::score_set(&set, &docs, &[ex.as_ref()], m, &|| {}).remove(0));
    let out = PyList::empty(py);
    for (d, s) in docs.iter().zip(&scores) {
        let row = PyDict::new(py);
        row.set_item("package", &set.packages[d.package])?;
        row.set_item("id", &d.id)?;
        row.set_item("precision", s.prf.precision)?;
        row.set_item("recall", s.prf.recall)?;
        row.set_item("f1", s.prf.f1)?;
        row.set_item("extract_words", s.extract_words)?;
        row.set_item("gold_words", s.gold_words)?;
        row.set_item("error", s.error.clone())?;
        out.append(row)?;
    }
    Ok(out)
}

/// space(name_or_file) -> dict: a parameter space as plain data for the Optuna bridge:
/// `{"extractor", "members", "params": [{"name", "type", "min", "max", "step", "choices",
/// "default", "tune"}]}`.
#[pyfunction]
fn space<'py>(py: Python<'py>, params: &str) -> PyResult<Bound<'py, PyDict>> {
    let file = Path::new(params);
    let engine = extract::Engine::default();
    let (space, _) =
        if file.is_file() { resolve(&engine, None, Some(file))? } else { resolve(&engine, Some(params), None)? };
    let d = PyDict::new(py);
    d.set_item("extractor", &space.extractor)?;
    d.set_item("members", space.member_names())?;
    let ps = PyList::empty(py);
    for p in &space.params {
        let e = PyDict::new(py);
        e.set_item("name", &p.name)?;
        match &p.spec {
            Spec::Float { min, max, step } => {
                e.set_item("type", "float")?;
                e.set_item("min", min)?;
                e.set_item("max", max)?;
                e.set_item("step", step)?;
            }
            Spec::Int { min, max } => {
                e.set_item("type", "int")?;
                e.set_item("min", min)?;
                e.set_item("max", max)?;
            }
            Spec::Categorical { choices } => {
                e.set_item("type", "categorical")?;
                e.set_item("choices", choices)?;
            }
            Spec::Bool => e.set_item("type", "bool")?,
        }
        e.set_item("default", value_py(py, &p.default)?)?;
        e.set_item("tune", p.tune)?;
        ps.append(e)?;
    }
    d.set_item("params", ps)?;
    Ok(d)
}

/// decode_page(page) -> str: page bytes decoded as cetune decodes pages (byte-order mark, valid
/// UTF-8, the declared charset, detection), line endings normalised.
#[pyfunction]
fn decode_page(page: &[u8]) -> String {
    cetune::goldset::decode::decode(page).0
}

/// goldset_manifest(goldset) -> (manifest, annotations): a native gold set's `goldset.yaml` as
/// written (JSON, `None` without one) and the records of its `annotations.yaml` (JSON, `{}`
/// without one), each apart, for `cetune.goldset` to carry them into a dataset.
#[pyfunction]
fn goldset_manifest(goldset: std::path::PathBuf) -> PyResult<(Option<String>, String)> {
    use cetune::goldset::native;
    if !goldset.is_dir() {
        return Err(py_err(cetune::goldset::not_found(&goldset)));
    }
    let path = goldset.join(native::MANIFEST);
    let manifest = if path.exists() {
        let text = cetune::paths::read_capped_text(&path, cetune::yaml::MAX_BYTES as u64, "gold-set manifest")
            .map_err(py_err)?;
        Some(native::parse_manifest(&text, &path).map_err(py_err)?)
    } else {
        None
    };
    let annotations = native::annotations(&goldset).map_err(py_err)?;
    Ok((manifest.as_ref().map(to_json).transpose()?, to_json(&annotations)?))
}

fn to_json<T: serde::Serialize>(v: &T) -> PyResult<String> {
    serde_json::to_string(v).map_err(|e| PyValueError::new_err(format!("cannot encode JSON: {e}")))
}

/// GoldsetWriter(out, manifest, force=False): writes a native gold set with cetune's writer
/// (into a new folder swapped in at `finish`; an existing set is replaced only with `force` and
/// only when cetune wrote it): `add(rel, data)` writes one file (`package/name`), `finish(
/// annotations)` writes `goldset.yaml` from the manifest (JSON) and `annotations.yaml` from the
/// records (JSON, none when `None`), both as cetune writes them, and returns the set's path.
#[pyclass(module = "cetune._cetune")]
struct GoldsetWriter {
    writer: Option<cetune::goldset::native::Writer>,
}

#[pymethods]
impl GoldsetWriter {
    #[new]
    #[pyo3(signature = (out, manifest, force=false))]
    fn new(out: std::path::PathBuf, manifest: &str, force: bool) -> PyResult<Self> {
        let manifest: cetune::goldset::native::Manifest = serde_json::from_str(manifest)
            .map_err(|e| PyValueError::new_err(format!("{}: gold-set manifest: {e}", out.display())))?;
        let writer = cetune::goldset::native::Writer::create(&out, manifest, force, None).map_err(py_err)?;
        Ok(GoldsetWriter { writer: Some(writer) })
    }

    /// add(rel, data): one file of the set at `package/name` (plain names only).
    fn add(&mut self, rel: &str, data: &[u8]) -> PyResult<()> {
        let parts: Vec<_> = Path::new(rel).components().collect();
        let plain = |c: &std::path::Component| matches!(c, std::path::Component::Normal(n) if !n.to_string_lossy().starts_with('.'));
        if parts.len() != 2 || !parts.iter().all(plain) || rel.contains('\\') {
            return Err(PyValueError::new_err(format!("{rel:?} is no package/file name of a gold set")));
        }
        self.writer()?.add_file(rel, data).map_err(py_err)
    }

    /// finish(annotations=None) -> str: writes the manifest (and the annotation records) and
    /// puts the set in place.
    #[pyo3(signature = (annotations=None))]
    fn finish(&mut self, annotations: Option<&str>) -> PyResult<String> {
        let mut w = self.writer.take().ok_or_else(|| PyValueError::new_err("this gold set is already written"))?;
        if let Some(a) = annotations {
            let records: std::collections::BTreeMap<String, cetune::goldset::native::Annotated> =
                serde_json::from_str(a).map_err(|e| PyValueError::new_err(format!("annotation records: {e}")))?;
            let text = cetune::yaml::to_string(&records).map_err(py_err)?;
            w.add_file(cetune::goldset::native::ANNOTATIONS, text.as_bytes()).map_err(py_err)?;
        }
        w.finish().map(|p| p.display().to_string()).map_err(py_err)
    }
}

impl GoldsetWriter {
    fn writer(&mut self) -> PyResult<&mut cetune::goldset::native::Writer> {
        self.writer.as_mut().ok_or_else(|| PyValueError::new_err("this gold set is already written"))
    }
}

/// The extension module.
#[pymodule]
fn _cetune(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Extractor>()?;
    m.add_class::<Extracted>()?;
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(space, m)?)?;
    m.add_function(wrap_pyfunction!(decode_page, m)?)?;
    m.add_function(wrap_pyfunction!(goldset_manifest, m)?)?;
    m.add_class::<GoldsetWriter>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
