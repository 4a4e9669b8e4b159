//! Wrappers a person can read and reuse (`blogs.md` §14.4): `cetune wrapper learn` writes one
//! YAML file per site of a gold set (per property, the rules `feedwrapper` learns from all the
//! site's pages, ranked, with gain and support, and a CSS selector and an XPath that select what
//! the rule selects on the page it was learned from), and `extract --extractor feedwrapper
//! --wrappers DIR` applies them by host to pages that have no feed.
//!
//! A rule's test is cetune's (§13.4–§13.5): an element's `classes` (or `ids`) chain — its own
//! class tokens, then those of each ancestor holding the same text — equals the value, or its
//! absolute path does; the first rule that selects exactly one element wins. The CSS and XPath
//! are its plain equivalents for use elsewhere: the chain's levels as a child chain
//! (`.author.vcard > .url.fn.n`), the path with 1-based element positions
//! (`html > body > div:nth-child(2)`, `/html/body/*[2][self::div]`); the CSS and XPath of a
//! chain may also select elements whose chain holds more classes.
//!
//! Imports from the crate: `document`, `error`, `goldset`, `params`, `paths` and `yaml`.

use super::facts::{ATTRS, NodeAttrs, PageAttrs, PageFacts, Values, hash, of_document};
use super::rules::{Attr, Rule};
use super::{FeedWrapper, Prop, SiteRules, origin_hosts};
use crate::document::parse::{Dom, NONE};
use crate::document::{Document, Needs, norm_host};
use crate::error::{Error, Result};
use crate::extract::Extractor;
use crate::extract::wrappers::{Learned, Wrappers};
use crate::goldset::GoldSet;
use crate::params::Setting;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One rule of a wrapper file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleRow {
    /// `classes`, `ids` or `path`.
    pub attr: String,
    /// The chain or path the element must have.
    pub value: String,
    /// Its gain (`support`: the share of the property's matches holding the value).
    pub gain: f64,
    /// How many matches on the training pages hold the value.
    pub support: usize,
    /// A CSS selector for what it selects (see the module documentation).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub css: String,
    /// An XPath for what it selects.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub xpath: String,
}

/// A wrapper file: one site's rules.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrapperFile {
    /// The site (the gold set's package).
    pub site: String,
    /// The hosts whose pages it applies to.
    #[serde(default)]
    pub hosts: Vec<String>,
    /// Pages it was learned from.
    #[serde(default)]
    pub pages: usize,
    /// The `feedwrapper` setting that learned it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub setting: String,
    /// Rules for the title, best first.
    #[serde(default)]
    pub title: Vec<RuleRow>,
    /// Rules for the author.
    #[serde(default)]
    pub author: Vec<RuleRow>,
    /// Rules for the date.
    #[serde(default)]
    pub date: Vec<RuleRow>,
    /// Rules for the content.
    #[serde(default)]
    pub content: Vec<RuleRow>,
}

impl WrapperFile {
    fn props(&self) -> [&Vec<RuleRow>; 4] {
        [&self.title, &self.author, &self.date, &self.content]
    }

    /// The rules as `feedwrapper` applies them.
    pub fn site_rules(&self, path: &Path) -> Result<SiteRules> {
        let mut rules: [Vec<Rule<u64>>; 4] = Default::default();
        for (k, rows) in self.props().iter().enumerate() {
            for r in rows.iter() {
                let attr = Attr::ALL.into_iter().find(|a| a.name() == r.attr).ok_or_else(|| {
                    Error::config(format!(
                        "{}: rule attribute '{}' (expected classes, ids or path)",
                        Prop::ALL[k].name(),
                        r.attr
                    ))
                    .with_path(path)
                })?;
                rules[k].push(Rule { attr, value: hash(&r.value), gain: r.gain, support: r.support });
            }
        }
        let mut hosts: Vec<String> = self.hosts.iter().map(|h| norm_host(h.trim())).collect();
        hosts.push(norm_host(self.site.trim()));
        Ok(SiteRules { site: self.site.clone(), hosts, rules })
    }
}

/// Reads the wrapper files of `path` (a folder of `*.yaml`, or one file). A damaged file is a
/// configuration error naming it and its line.
pub fn load(path: &Path) -> Result<Vec<SiteRules>> {
    let files: Vec<PathBuf> = if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| Error::io(path, "read folder", e))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
            .collect();
        v.sort();
        v
    } else if path.exists() {
        // Anything but a folder is read as one file, through the bounded reader, which names
        // what a device or FIFO (or a link to one) is.
        vec![path.to_path_buf()]
    } else {
        return Err(Error::not_found(path, "wrappers not found: no such file or folder"));
    };
    if files.is_empty() {
        return Err(
            Error::config("no wrapper files (*.yaml) here; write them with `cetune wrapper learn`").with_path(path)
        );
    }
    files
        .iter()
        .map(|f| {
            let text = crate::paths::read_capped_text(f, crate::yaml::MAX_BYTES as u64, "wrapper file")?;
            let w: WrapperFile = crate::yaml::from_str(&text, f, Error::config)?;
            w.site_rules(f)
        })
        .collect()
}

/// The attributes of a page parsed with [`ATTRS`].
fn attrs(doc: &Document) -> &[NodeAttrs] {
    doc.facts.get::<PageAttrs>().map_or(&[], |a| &a.0)
}

/// Non-space characters of each node's subtree.
fn subtree_chars(dom: &Dom) -> Vec<u32> {
    let n = dom.nodes.len();
    let mut cum = vec![0u32; n + 1];
    for (k, node) in dom.nodes.iter().enumerate() {
        cum[k + 1] = cum[k] + if node.is_text() { dom.info[node.text as usize].chars } else { 0 };
    }
    (0..n).map(|i| cum[dom.nodes[i].end as usize] - cum[i]).collect()
}

/// A CSS identifier, escaped.
fn css_ident(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c.to_string() } else { format!("\\{c}") })
        .collect()
}

/// An XPath string literal.
fn xpath_literal(s: &str) -> String {
    if s.contains('\'') { format!("\"{s}\"") } else { format!("'{s}'") }
}

/// The CSS selector and XPath of rule `attr` for node `k` of a page (see the module
/// documentation).
fn selectors(dom: &Dom, attrs: &[NodeAttrs], chars: &[u32], k: usize, attr: Attr) -> (String, String) {
    if attr == Attr::Path {
        let mut chain = Vec::new();
        let mut a = k;
        while a != 0 && a != NONE as usize {
            chain.push(a);
            a = dom.nodes[a].parent as usize;
        }
        chain.reverse();
        let (mut css, mut xpath) = (Vec::new(), String::new());
        for (i, &a) in chain.iter().enumerate() {
            let tag = dom.nodes[a].tag.name();
            let pos = attrs[a].position + 1;
            if i == 0 {
                css.push(tag.to_string());
                xpath += &format!("/{tag}");
            } else {
                css.push(format!("{tag}:nth-child({pos})"));
                xpath += &format!("/*[{pos}][self::{tag}]");
            }
        }
        return (css.join(" > "), xpath);
    }
    // The chain's levels: the element, then its ancestors while they hold the same text.
    let mut levels = vec![k];
    let mut a = k;
    loop {
        let p = dom.nodes[a].parent;
        if p == NONE || p == 0 || chars[p as usize] != chars[k] {
            break;
        }
        a = p as usize;
        levels.push(a);
    }
    let has = |a: usize| match attr {
        Attr::Classes => !attrs[a].class.trim().is_empty(),
        _ => !attrs[a].id.trim().is_empty(),
    };
    let last = levels.iter().rposition(|&a| has(a)).unwrap_or(0);
    let (mut css, mut xpath) = (Vec::new(), Vec::new());
    for &a in levels[..=last].iter().rev() {
        if !has(a) {
            css.push("*".to_string());
            xpath.push("*".to_string());
            continue;
        }
        match attr {
            Attr::Classes => {
                let tokens: Vec<&str> = attrs[a].class.split_whitespace().collect();
                css.push(tokens.iter().map(|t| format!(".{}", css_ident(t))).collect());
                let tests: Vec<String> = tokens
                    .iter()
                    .map(|t| {
                        format!(
                            "contains(concat(' ', normalize-space(@class), ' '), {})",
                            xpath_literal(&format!(" {t} "))
                        )
                    })
                    .collect();
                xpath.push(format!("*[{}]", tests.join(" and ")));
            }
            _ => {
                let id = attrs[a].id.trim();
                css.push(format!("#{}", css_ident(id)));
                xpath.push(format!("*[@id={}]", xpath_literal(id)));
            }
        }
    }
    (css.join(" > "), format!("//{}", xpath.join("/")))
}

/// A site's wrapper from the pages of one package of `set` (all of them are training pages;
/// at most `max_items` in id order, as `feedwrapper` reads).
pub fn learn_site(set: &GoldSet, package: usize, fw: &FeedWrapper, label: &str) -> WrapperFile {
    let (max_items, cut) = fw.training();
    let mut pages: Vec<(Document, PageFacts)> = Vec::new();
    let mut hosts: Vec<String> = Vec::new();
    let mut docs: Vec<&crate::goldset::GoldDoc> = set.docs.iter().filter(|d| d.package == package).collect();
    docs.sort_by(|a, b| a.id.cmp(&b.id));
    for d in docs.into_iter().take(max_items) {
        let Ok((html, _)) = d.read_page(&set.limits) else { continue };
        let parsed = crate::error::isolate(|| Document::parse_for(&html, &set.limits, Needs::fact(&ATTRS)).0);
        let Ok(doc) = parsed else { continue };
        let facts = of_document(&doc, &Values::of(d, cut), true);
        if let Some(h) = d.url.as_deref().and_then(|u| origin_hosts(Some(u)).pop())
            && !hosts.contains(&h)
        {
            hosts.push(h);
        }
        pages.push((doc, facts));
    }
    let train: Vec<&PageFacts> = pages.iter().map(|(_, f)| f).collect();
    let site = set.packages[package].clone();
    let mut w = WrapperFile { site, hosts, pages: pages.len(), setting: label.to_string(), ..WrapperFile::default() };
    let chars: Vec<Vec<u32>> = pages.iter().map(|(d, _)| subtree_chars(&d.dom)).collect();
    for prop in Prop::ALL {
        let rows: Vec<RuleRow> = fw
            .rules(&train, prop)
            .into_iter()
            .filter_map(|r| {
                let k = Attr::ALL.iter().position(|a| *a == r.attr)?;
                // The value's text and an element holding it, on the first page that has one.
                let (value, example) = pages.iter().zip(&chars).find_map(|((doc, f), ch)| {
                    let name =
                        f.names.binary_search_by_key(&r.value, |(h, _)| *h).ok().map(|i| f.names[i].1.clone())?;
                    let c = f.cands.iter().find(|c| c.triple[k] == r.value)?;
                    Some((name, selectors(&doc.dom, attrs(doc), ch, c.node as usize, r.attr)))
                })?;
                Some(RuleRow {
                    attr: r.attr.name().into(),
                    value,
                    gain: r.gain,
                    support: r.support,
                    css: example.0,
                    xpath: example.1,
                })
            })
            .collect();
        match prop {
            Prop::Title => w.title = rows,
            Prop::Author => w.author = rows,
            Prop::Date => w.date = rows,
            Prop::Content => w.content = rows,
        }
    }
    w
}

/// The family's wrapper files: `wrapper learn` and `extract --wrappers`.
#[derive(Debug)]
pub struct Files;

/// The family's [`Wrappers`] (its row in the family table names it).
pub static FILES: Files = Files;

impl Wrappers for Files {
    fn learn(
        &self,
        set: &GoldSet,
        s: &Setting,
        label: &str,
        out: &Path,
        force: bool,
        reads: &crate::paths::Reads,
    ) -> Result<Learned> {
        learn(set, &FeedWrapper::of_setting(s)?, label, out, force, reads)
    }

    fn apply(&self, s: &Setting, files: &Path) -> Result<Box<dyn Extractor>> {
        let fw = FeedWrapper::of_setting(s)?;
        Ok(Box::new(fw.with_rules(load(files)?)))
    }
}

/// `cetune wrapper learn`: one `<site>.yaml` per package of `set` in `out`. `out` may not be,
/// hold or lie in what the command reads (`reads`, the gold set besides); an existing non-empty
/// `out` is written into only with `force`, and only when everything in it is what cetune wrote
/// there (its list of written files), which is replaced.
pub fn learn(
    set: &GoldSet,
    fw: &FeedWrapper,
    label: &str,
    out: &Path,
    force: bool,
    reads: &crate::paths::Reads,
) -> Result<Learned> {
    reads.clone().with(&set.root, "the gold set").refuse(out)?;
    crate::paths::refuse_cwd_or_ancestor(out)?;
    crate::paths::refuse_symlink(out)?;
    if out.exists() && !out.is_dir() {
        return Err(Error::config("--out exists and is not a folder").with_path(out));
    }
    if crate::paths::is_non_empty_dir(out) {
        if !force {
            return Err(Error::config(
                "output folder is not empty (use --force to replace the wrappers cetune wrote there)",
            )
            .with_path(out));
        }
        let listed = crate::paths::read_list(out);
        let mut foreign: Vec<String> = std::fs::read_dir(out)
            .map_err(|e| Error::io(out, "read folder", e))?
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != crate::paths::WRITTEN && !listed.contains(n))
            .collect();
        foreign.sort();
        if let Some(f) = foreign.first() {
            return Err(Error::config(format!(
                "output folder holds {f}, which cetune did not write, and --force replaces only what it wrote; move it away or choose a new --out"
            ))
            .with_path(out));
        }
        crate::paths::clear_listed(out, &[])?;
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, "create output folder", e))?;
    crate::paths::start_list(out)?;
    let mut learned = Learned::default();
    for (package, site) in set.packages.iter().enumerate() {
        let w = learn_site(set, package, fw, label);
        let counts = w.props().map(Vec::len);
        let text = format!(
            "# cetune wrapper for {site}: per property, the rules feedwrapper learned from {} pages, best first.\n\
             # A rule selects the elements whose `classes` chain (own class tokens, then those of each ancestor\n\
             # holding the same text), `ids` chain or absolute path equals `value`; the first rule selecting\n\
             # exactly one element wins. `css` and `xpath` select what the rule selected on a training page.\n{}",
            w.pages,
            crate::yaml::to_string(&w)?
        );
        let path = out.join(format!("{}.yaml", crate::paths::component(site)));
        crate::paths::write_atomic(&path, text.as_bytes())?;
        learned.sites.push((site.clone(), w.pages, counts));
        learned.files.push(path);
    }
    Ok(learned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_name_the_chain_and_the_path() {
        let html = r#"<html><body><div id="side">x</div><div class="post"><span class="author vcard"><a class="url fn n">Ann Lee</a></span><p>text</p></div></body></html>"#;
        let doc = Document::parse_for(html, &Default::default(), Needs::fact(&ATTRS)).0;
        let chars = subtree_chars(&doc.dom);
        let a = doc.dom.nodes.iter().position(|n| n.tag.name() == "a").unwrap();
        let (css, xpath) = selectors(&doc.dom, attrs(&doc), &chars, a, Attr::Classes);
        assert_eq!(css, ".author.vcard > .url.fn.n");
        assert!(xpath.starts_with("//*[contains(concat(' ', normalize-space(@class), ' '), ' author ')"), "{xpath}");
        let (css, xpath) = selectors(&doc.dom, attrs(&doc), &chars, a, Attr::Path);
        assert_eq!(css, "html > body:nth-child(2) > div:nth-child(2) > span:nth-child(1) > a:nth-child(1)");
        assert_eq!(xpath, "/html/*[2][self::body]/*[2][self::div]/*[1][self::span]/*[1][self::a]");
        assert_eq!(origin_hosts(Some("/m/www.Blog.example/2013/a.html")), ["blog.example"]);
        assert_eq!(origin_hosts(Some("https://www.blog.example:8080/x")), ["blog.example"]);
    }
}
