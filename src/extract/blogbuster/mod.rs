//! # BlogBuster
//!
//! Hand-written DOM rules that find the posts of Blogger and WordPress pages, with each post's
//! title and date, from element ids and classes only. A page where no post is found gives an
//! empty extract (the family abstains: combine it with a `fallback`). It **segments**: each post
//! is a [`Post`] with `body`, `title`, `date` (and, an extension not in the paper, `comments`).
//! Pages whose posts are injected by script are out of reach: cetune sees the static HTML, the
//! paper's engine a browser DOM after JavaScript.
//!
//! ## References
//! G. Petasis, D. Petasis, *BlogBuster: A tool for extracting corpora from the blogosphere*,
//! LREC 2010, <http://www.lrec-conf.org/proceedings/lrec2010/pdf/270_Paper.pdf>.
//!
//! ## Parameters
//! - `post_tags`: elements that may be a post: `div` (paper), `div+article`, `div+article+section`.
//! - `match_on`: `value` (a glob covers the whole attribute value, the paper's reading) or `token`.
//! - `p_<glob>`: one bool per catalogue pattern ([`patterns::CATALOGUE`]): the paper's
//!   on, the extensions off (the comment patterns on: they change the extract only with `comments`).
//! - `child_scope`: where step 2b looks for the body child: `children` (paper) or `descendants`.
//! - `child_select`: which matching child is the body: `first` (paper), `pattern`, `longest`.
//! - `title_scope`: `children` (paper) or `descendants` for step 3a.
//! - `title_sibling_limit`: previous siblings step 3b looks at (0: all, the paper).
//! - `date_scope`: `children` (paper) or `descendants` for steps 4a/4b.
//! - `date_sibling_limit`: previous siblings step 4c looks at (0: all, the paper).
//! - `date_sibling_tags`: `paper` (`h1`–`h5`, `small`) or `paper+inline` (also `span`, `div`, `p`,
//!   `abbr`, `time`: the tag name the paper lost).
//! - `output`: what the keep-mask takes: `body`, `title+body` (default), `title+date+body`, `post`.
//! - `fallback`: `none` (a page without posts gives nothing) or `full` (all its text).
//! - `comments`: keep the comment blocks too (extension, §12.7).
//!
//! ## Interpretation
//! `blogs.md` §12 (to be `algorithms.md` §12): patterns are Tcl `string match` globs over the
//! trimmed, lower-cased attribute value; "any attribute" is every attribute value, "class" the
//! `class` value only; a post whose body lies inside an earlier post's body is the same post seen
//! twice (§12.3 step 5). The pattern facts are computed once per page at parse time
//! ([`patterns::Patterns`], this family's fact), so an individual costs bit operations and one pass over the elements.

use super::Extractor;
use super::segments::{Post, Segments};
pub mod patterns;

use crate::document::tags::Tag;
use crate::document::{Document, Selection, View};
use crate::error::{Error, Result};
use crate::params::SettingReader;
use patterns::{CATALOGUE, Patterns, bit};

/// The paper's pattern lists of each step, then the extensions that join them (§12.8).
const STEP1: &[&str] = &["post*", "*hentry*", "divlog", "*entry*post*", "*post-*", "snap_preview"];
const BODY_SELF: &[&str] = &[
    "*post-body*",
    "posts",
    "entry",
    "content",
    "*entry-content*",
    "snap_preview",
    "*entry-body*",
    "*article-body*",
    "*post-content*",
];
const BODY_CHILD: &[&str] = &[
    "*post-body*",
    "posts",
    "entry*",
    "content",
    "*entry-content*",
    "text",
    "entrybody",
    "*entry-body*",
    "*article-body*",
    "*post-content*",
];
const TITLE: &[&str] = &[
    "*post-title*",
    "*entry-title*",
    "*title*",
    "storytitle",
    "posttitle",
    "pagetitle",
    "entrytitle",
    "*single-title*",
];
const DATE_A: &[&str] = &["*posted-in*", "datepost", "entrymeta", "date", "*entry-date*", "*posted-on*", "*published*"];
const INFO: &[&str] = &["postinfo", "info", "*-head*"];
const INFO_I: &[&str] = &["postdate", "date"];
const INFO_II: &[&str] = &["postdate", "date", "*time*", "*date*"];
const DATE_SIB: &[&str] = &["*date-header*", "*date*", "*entry-date*", "*published*"];
const COMMENT: &[&str] = &["*comment-body*", "*comment-content*", "comment", "*commentlist*"];

fn bits(list: &[&str]) -> u64 {
    list.iter().fold(0, |acc, p| acc | bit(p))
}

/// The gene of catalogue pattern `p`.
pub fn gene(p: &str) -> String {
    format!("p_{p}")
}

crate::params::choices! {
    /// Where a step looks below an element.
    enum Scope { Children = "children", Descendants = "descendants" }
}

/// How step 2b picks the body among matching children.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Select {
    First,
    Pattern,
    Longest,
}

/// What the keep-mask takes of each post.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Output {
    Body,
    TitleBody,
    TitleDateBody,
    Post,
}

/// A configured BlogBuster individual: the active patterns of each step as bitmasks.
pub struct BlogBuster {
    post_tags: Vec<Tag>,
    token: bool,
    step1: u64,
    body_self: u64,
    body_child: u64,
    body_order: Vec<u64>,
    title: u64,
    date_a: u64,
    info: u64,
    info_i: u64,
    info_ii: u64,
    date_sib: u64,
    comment: u64,
    child_scope: Scope,
    child_select: Select,
    title_scope: Scope,
    title_sibling_limit: usize,
    date_scope: Scope,
    date_sibling_limit: usize,
    date_sibling_tags: Vec<Tag>,
    output: Output,
    fallback_full: bool,
    comments: bool,
}

/// One post found on a page: node indices.
#[derive(Debug, Clone, Copy)]
struct Found {
    post: usize,
    body: usize,
    title: Option<usize>,
    date: Option<usize>,
}

fn tags(names: &[&str]) -> Vec<Tag> {
    names.iter().map(|n| Tag::from_name(n)).collect()
}

impl BlogBuster {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        let mut active = 0u64;
        for p in CATALOGUE {
            if r.bool(&gene(p))? {
                active |= bit(p);
            }
        }
        let cat = |r: &mut SettingReader, name: &str, choices: &[&str]| -> Result<usize> {
            let v = r.cat(name)?;
            choices.iter().position(|c| *c == v).ok_or_else(|| {
                Error::config(format!("parameter '{name}' must be one of {}, got {v}", choices.join(", ")))
            })
        };
        let post_tags = match cat(r, "post_tags", &["div", "div+article", "div+article+section"])? {
            0 => tags(&["div"]),
            1 => tags(&["div", "article"]),
            _ => tags(&["div", "article", "section"]),
        };
        let token = cat(r, "match_on", &["value", "token"])? == 1;
        let child_scope: Scope = r.choice("child_scope")?;
        let child_select = [Select::First, Select::Pattern, Select::Longest]
            [cat(r, "child_select", &["first", "pattern", "longest"])?];
        let title_scope: Scope = r.choice("title_scope")?;
        let title_sibling_limit = r.int("title_sibling_limit")?.max(0) as usize;
        let date_scope: Scope = r.choice("date_scope")?;
        let date_sibling_limit = r.int("date_sibling_limit")?.max(0) as usize;
        let date_sibling_tags = match cat(r, "date_sibling_tags", &["paper", "paper+inline"])? {
            0 => tags(&["h1", "h2", "h3", "h4", "h5", "small"]),
            _ => tags(&["h1", "h2", "h3", "h4", "h5", "small", "span", "div", "p", "abbr", "time"]),
        };
        let output = [Output::Body, Output::TitleBody, Output::TitleDateBody, Output::Post]
            [cat(r, "output", &["body", "title+body", "title+date+body", "post"])?];
        let fallback_full = cat(r, "fallback", &["none", "full"])? == 1;
        let comments = r.bool("comments")?;
        Ok(Box::new(BlogBuster {
            post_tags,
            token,
            step1: bits(STEP1) & active,
            body_self: bits(BODY_SELF) & active,
            body_child: bits(BODY_CHILD) & active,
            body_order: BODY_CHILD.iter().map(|p| bit(p) & active).filter(|b| *b != 0).collect(),
            title: bits(TITLE) & active,
            date_a: bits(DATE_A) & active,
            info: bits(INFO) & active,
            info_i: bits(INFO_I) & active,
            info_ii: bits(INFO_II) & active,
            date_sib: bits(DATE_SIB) & active,
            comment: bits(COMMENT) & active,
            child_scope,
            child_select,
            title_scope,
            title_sibling_limit,
            date_scope,
            date_sibling_limit,
            date_sibling_tags,
            output,
            fallback_full,
            comments,
        }))
    }

    /// The masks (any attribute, class) of node `i` under the active reading.
    fn m(&self, doc: &Document, i: usize) -> (u64, u64) {
        doc.facts.get::<Patterns>().and_then(|p| p.0.get(i)).map_or((0, 0), |m| m.get(self.token))
    }

    fn is_candidate(&self, doc: &Document, i: usize) -> bool {
        let n = &doc.dom.nodes[i];
        !n.is_text() && self.post_tags.contains(&n.tag) && self.m(doc, i).0 & self.step1 != 0
    }

    /// The element nodes below `d` in `scope`, in document order (descendants: not entering
    /// another post candidate).
    fn below(&self, doc: &Document, d: usize, scope: Scope) -> Vec<usize> {
        let nodes = &doc.dom.nodes;
        let mut out = Vec::new();
        let mut i = d + 1;
        while i < nodes[d].end as usize {
            let n = &nodes[i];
            if n.is_text() {
                i += 1;
                continue;
            }
            match scope {
                Scope::Children => {
                    out.push(i);
                    i = n.end as usize; // the next sibling
                }
                Scope::Descendants => {
                    if self.is_candidate(doc, i) {
                        i = n.end as usize;
                        continue;
                    }
                    out.push(i);
                    i += 1;
                }
            }
        }
        out
    }

    /// The previous element siblings of `d`, nearest first, at most `limit` (0: all).
    fn previous_siblings(doc: &Document, d: usize, limit: usize) -> Vec<usize> {
        let nodes = &doc.dom.nodes;
        let parent = nodes[d].parent;
        if parent == crate::document::parse::NONE {
            return Vec::new();
        }
        let mut sibs = Vec::new();
        let mut i = parent as usize + 1;
        while i < d {
            if !nodes[i].is_text() {
                sibs.push(i);
            }
            i = nodes[i].end as usize;
        }
        sibs.reverse();
        if limit > 0 {
            sibs.truncate(limit);
        }
        sibs
    }

    fn chars(doc: &Document, i: usize) -> u32 {
        doc.dom.units_in(i).map(|u| doc.dom.info[u as usize].chars).sum()
    }

    /// Step 2: the body of candidate `d`.
    fn body(&self, doc: &Document, d: usize) -> Option<usize> {
        if self.m(doc, d).1 & self.body_self != 0 {
            return Some(d);
        }
        let div = Tag::from_name("div");
        let kids: Vec<usize> = self
            .below(doc, d, self.child_scope)
            .into_iter()
            .filter(|&i| doc.dom.nodes[i].tag == div && self.m(doc, i).1 & self.body_child != 0)
            .collect();
        match self.child_select {
            Select::First => kids.first().copied(),
            Select::Pattern => {
                self.body_order.iter().find_map(|b| kids.iter().copied().find(|&i| self.m(doc, i).1 & b != 0))
            }
            Select::Longest => {
                kids.iter().copied().rev().max_by_key(|&i| Self::chars(doc, i)) // ties: the first
            }
        }
    }

    /// Step 3: the title of post `d`.
    fn title(&self, doc: &Document, d: usize) -> Option<usize> {
        let below = self.below(doc, d, self.title_scope);
        for t in ["h3", "h2", "a"].map(Tag::from_name) {
            if let Some(&i) = below.iter().find(|&&i| doc.dom.nodes[i].tag == t && self.m(doc, i).0 & self.title != 0) {
                return Some(i);
            }
        }
        let heads = tags(&["h1", "h2", "h3", "h4", "h5"]);
        Self::previous_siblings(doc, d, self.title_sibling_limit)
            .into_iter()
            .find(|&i| heads.contains(&doc.dom.nodes[i].tag))
    }

    /// Step 4: the element holding the date of post `d`.
    fn date(&self, doc: &Document, d: usize) -> Option<usize> {
        let div = Tag::from_name("div");
        let below = self.below(doc, d, self.date_scope);
        let divs = || below.iter().copied().filter(|&i| doc.dom.nodes[i].tag == div);
        if let Some(i) = divs().find(|&i| self.m(doc, i).1 & self.date_a != 0) {
            return Some(i);
        }
        let small = Tag::from_name("small");
        for i in divs().filter(|&i| self.m(doc, i).1 & self.info != 0) {
            let inner = self.below(doc, i, self.date_scope);
            if let Some(&c) = inner.iter().find(|&&c| self.m(doc, c).0 & self.info_i != 0) {
                return Some(c);
            }
            if let Some(&c) =
                inner.iter().find(|&&c| doc.dom.nodes[c].tag == small && self.m(doc, c).0 & self.info_ii != 0)
            {
                return Some(c);
            }
        }
        Self::previous_siblings(doc, d, self.date_sibling_limit)
            .into_iter()
            .find(|&i| self.date_sibling_tags.contains(&doc.dom.nodes[i].tag) && self.m(doc, i).0 & self.date_sib != 0)
    }

    /// Steps 1–5: the posts of a page, in document order.
    fn posts(&self, doc: &Document) -> Vec<Found> {
        let nodes = &doc.dom.nodes;
        let mut found: Vec<Found> = Vec::new();
        for d in 0..nodes.len() {
            if !self.is_candidate(doc, d) {
                continue;
            }
            let Some(body) = self.body(doc, d) else { continue };
            // Step 5: a body inside (or equal to) an earlier post's body is that post again.
            if found.iter().any(|f| f.body <= body && body < nodes[f.body].end as usize) {
                continue;
            }
            found.push(Found { post: d, body, title: self.title(doc, d), date: self.date(doc, d) });
        }
        found
    }

    /// The comment blocks of the page (outermost matches on `div`, `li`, `dd`, `article`).
    fn comment_blocks(&self, doc: &Document) -> Vec<usize> {
        if self.comment == 0 {
            return Vec::new();
        }
        let on = tags(&["div", "li", "dd", "article", "ol", "dl"]);
        let nodes = &doc.dom.nodes;
        let mut out = Vec::new();
        let mut i = 0;
        while i < nodes.len() {
            if !nodes[i].is_text() && on.contains(&nodes[i].tag) && self.m(doc, i).0 & self.comment != 0 {
                out.push(i);
                i = nodes[i].end as usize;
            } else {
                i += 1;
            }
        }
        out
    }

    fn units(doc: &Document, nodes: impl IntoIterator<Item = usize>) -> Selection {
        let mut units: Vec<u32> = nodes.into_iter().flat_map(|i| doc.dom.units_in(i)).collect();
        units.sort_unstable();
        units.dedup();
        Selection { view: View::Dom, units }
    }
}

impl Extractor for BlogBuster {
    /// The DOM view and the class and id pattern masks of its elements.
    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::DOM | crate::document::Needs::fact(&patterns::FACT)
    }
    fn view(&self) -> View {
        View::Dom
    }

    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let posts = self.posts(doc);
        if posts.is_empty() {
            if self.fallback_full {
                out.units.extend(0..doc.dom.texts.len() as u32);
            }
            return Ok(());
        }
        let mut keep: Vec<usize> = Vec::new();
        for p in &posts {
            match self.output {
                Output::Post => keep.push(p.post),
                o => {
                    keep.push(p.body);
                    if o != Output::Body {
                        keep.extend(p.title);
                    }
                    if o == Output::TitleDateBody {
                        keep.extend(p.date);
                    }
                }
            }
        }
        if self.comments {
            keep.extend(self.comment_blocks(doc));
        }
        out.units.extend(Self::units(doc, keep).units);
        Ok(())
    }

    fn segments(&self, doc: &Document) -> super::Fallible<Option<Segments>> {
        let found = self.posts(doc);
        let comments = self.comment_blocks(doc);
        let n = found.len();
        let posts = found
            .iter()
            .map(|f| {
                // Comments inside the post element are its own; those outside go to a page's
                // only post (a post page's comment list sits beside the post).
                let end = doc.dom.nodes[f.post].end as usize;
                let mine: Vec<usize> =
                    comments.iter().copied().filter(|&c| n == 1 || (f.post < c && c < end)).collect();
                Post {
                    body: Self::units(doc, [f.body]),
                    title: f.title.map(|t| Self::units(doc, [t])),
                    date: f.date.map(|t| Self::units(doc, [t])),
                    author: None,
                    comments: (!mine.is_empty()).then(|| Self::units(doc, mine)),
                }
            })
            .collect();
        Ok(Some(Segments { posts }))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{run, with};
    use super::*;

    /// The page with every view and the pattern masks.
    fn parse(html: &str) -> Document {
        Document::parse_for(html, &Default::default(), crate::document::Needs::ALL.or(with("blogbuster", &[]).needs()))
            .0
    }

    fn segments(sets: &[&str], html: &str) -> Vec<(String, Option<String>, Option<String>)> {
        let doc = parse(html);
        let seg = with("blogbuster", sets).segments(&doc).unwrap().unwrap();
        seg.posts
            .iter()
            .map(|p| {
                (doc.render(&p.body), p.title.as_ref().map(|s| doc.render(s)), p.date.as_ref().map(|s| doc.render(s)))
            })
            .collect()
    }

    #[test]
    fn step1_a_div_is_a_post_when_any_attribute_matches_a_whole_value() {
        // `id="post-7"` matches `post*`; `class="mypost"` matches nothing.
        let page = r#"<div id="post-7"><div class="entry">Body one</div></div><div class="mypost"><div class="entry">No</div></div>"#;
        assert_eq!(run("blogbuster", &["output=body"], page), "Body one");
        // Token reading: `class="blog post"` has the token `post`.
        let page = r#"<div class="blog post"><div class="entry">Body two</div></div>"#;
        assert_eq!(run("blogbuster", &["output=body"], page), "");
        assert_eq!(run("blogbuster", &["output=body", "match_on=token"], page), "Body two");
        // Only divs by default; `article` with post_tags.
        let page = r#"<article class="post"><div class="entry">Body three</div></article>"#;
        assert_eq!(run("blogbuster", &[], page), "");
        assert_eq!(run("blogbuster", &["post_tags=div+article"], page), "Body three");
    }

    #[test]
    fn step2a_the_post_div_itself_is_the_body_when_its_class_matches() {
        // `div.post-body` is a candidate (`*post-*`) and its own body (`*post-body*`).
        let page = r#"<div class="post-body">Self body</div>"#;
        assert_eq!(segments(&[], page), [("Self body".into(), None, None)]);
        // The class only: an id `content` does not make the div its own body.
        let page = r#"<div class="post" id="content">Loose</div>"#;
        assert_eq!(segments(&[], page), []);
    }

    #[test]
    fn step2b_a_body_child_is_chosen_first_by_pattern_or_longest() {
        let page = r#"<div class="post hentry"><div class="entry-meta">May 11, 2012</div>
            <div class="entry-content">The long body text of the post is here.</div></div>"#;
        // `entry*` matches `entry-meta` first in document order (the paper's flaw).
        assert_eq!(run("blogbuster", &["output=body"], page), "May 11, 2012");
        assert_eq!(
            run("blogbuster", &["output=body", "child_select=longest"], page),
            "The long body text of the post is here."
        );
        // `pattern`: the first pattern in the 2b list order (*post-body*, posts, entry*, ...) that
        // a child matches, so `entry*` still wins here.
        assert_eq!(run("blogbuster", &["output=body", "child_select=pattern"], page), "May 11, 2012");
        // Switching the `entry*` gene off leaves `*entry-content*`.
        assert_eq!(
            run("blogbuster", &["output=body", "p_entry*=false"], page),
            "The long body text of the post is here."
        );
        // Descendants: a body two levels down.
        let deep = r#"<div class="post"><div class="inner"><div class="entry-content">Deep</div></div></div>"#;
        assert_eq!(run("blogbuster", &["output=body"], deep), "");
        assert_eq!(run("blogbuster", &["output=body", "child_scope=descendants"], deep), "Deep");
    }

    #[test]
    fn step2c_no_body_no_post_and_the_fallback_keeps_everything() {
        let page = r#"<div class="post"><p>Only a paragraph</p></div>"#;
        assert_eq!(run("blogbuster", &[], page), "");
        assert_eq!(run("blogbuster", &["fallback=full"], page), "Only a paragraph");
    }

    #[test]
    fn step3_title_from_h3_h2_a_children_in_that_order_else_a_previous_heading() {
        let page = r#"<div class="post"><a class="title-link">Link title</a><h2 class="entry-title">H2 title</h2>
            <div class="post-body">Body</div></div>"#;
        assert_eq!(segments(&[], page)[0].1.as_deref(), Some("H2 title"));
        let page = r#"<h4>Sibling title</h4><p>between</p><div class="post"><div class="post-body">Body</div></div>"#;
        assert_eq!(segments(&[], page)[0].1.as_deref(), Some("Sibling title"));
        assert_eq!(segments(&["title_sibling_limit=1"], page)[0].1, None);
        let page = r#"<div class="post"><h3>Plain h3</h3><div class="post-body">Body</div></div>"#;
        assert_eq!(segments(&[], page)[0].1, None, "3a needs a matching attribute");
        assert_eq!(
            run(
                "blogbuster",
                &[],
                r#"<div class="post"><h3 class="post-title">T</h3><div class="post-body">B</div></div>"#
            ),
            "T\nB"
        );
    }

    #[test]
    fn step4_date_from_a_date_div_an_info_div_or_a_previous_date_header() {
        let a = r#"<div class="post"><div class="date">May 11</div><div class="post-body">B</div></div>"#;
        assert_eq!(segments(&[], a)[0].2.as_deref(), Some("May 11"));
        let bi = r#"<div class="post"><div class="postinfo"><span class="date">May 12</span> by Ann</div><div class="post-body">B</div></div>"#;
        assert_eq!(segments(&[], bi)[0].2.as_deref(), Some("May 12"));
        let bii = r#"<div class="post"><div class="postinfo"><small class="the-date">May 13</small></div><div class="post-body">B</div></div>"#;
        assert_eq!(segments(&[], bii)[0].2.as_deref(), Some("May 13"));
        let c = r#"<h2 class="date-header">Friday, May 11, 2012</h2><div class="post"><div class="post-body">B</div></div>"#;
        assert_eq!(segments(&[], c)[0].2.as_deref(), Some("Friday, May 11, 2012"));
        let span = r#"<span class="date">May 14</span><div class="post"><div class="post-body">B</div></div>"#;
        assert_eq!(segments(&[], span)[0].2, None);
        assert_eq!(segments(&["date_sibling_tags=paper+inline"], span)[0].2.as_deref(), Some("May 14"));
        assert_eq!(run("blogbuster", &["output=title+date+body"], c), "Friday, May 11, 2012\nB");
    }

    #[test]
    fn step5_a_nested_candidate_is_one_post_and_a_front_page_gives_each_post() {
        let page = r#"<div class="post"><div class="post-body">Only once</div></div>"#;
        assert_eq!(segments(&[], page).len(), 1);
        let front = (1..=3)
            .map(|k| format!(r#"<h2 class="date-header">May {k}, 2012</h2><div class="post"><h3 class="post-title">Title {k}</h3><div class="post-body">Body {k}</div></div>"#))
            .collect::<String>();
        let s = segments(&[], &front);
        assert_eq!(s.len(), 3);
        assert_eq!(s[2], ("Body 3".to_string(), Some("Title 3".to_string()), Some("May 3, 2012".to_string())));
        assert_eq!(run("blogbuster", &["output=post"], &front), "Title 1\nBody 1\nTitle 2\nBody 2\nTitle 3\nBody 3");
    }

    #[test]
    fn comments_are_a_segment_and_join_the_extract_only_when_asked() {
        let page = r#"<div class="post"><div class="post-body">Body</div></div>
            <dl id="comments-block"><dd class="comment-body">Nice one</dd></dl>"#;
        let doc = parse(page);
        let seg = with("blogbuster", &[]).segments(&doc).unwrap().unwrap();
        assert_eq!(doc.render(seg.posts[0].comments.as_ref().unwrap()), "Nice one");
        assert_eq!(run("blogbuster", &["output=body"], page), "Body");
        assert_eq!(run("blogbuster", &["output=body", "comments=true"], page), "Body\nNice one");
    }

    #[test]
    fn the_other_attributes_count_for_any_but_not_for_class() {
        // `itemprop="date"` is an attribute value matching `date`: 4b-i reads any attribute.
        let page = r#"<div class="post"><div class="info"><span itemprop="date">May 15</span></div><div class="post-body">B</div></div>"#;
        assert_eq!(segments(&[], page)[0].2.as_deref(), Some("May 15"));
        // ... but 4a reads the class only.
        let page = r#"<div class="post"><div id="date">May 16</div><div class="post-body">B</div></div>"#;
        assert_eq!(segments(&[], page)[0].2, None);
    }
}
