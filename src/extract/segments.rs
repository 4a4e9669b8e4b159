//! Segments: what a family that recognises posts says about a page beyond its keep-mask —
//! each post with its body, title, date, author and comments, each a selection of the family's
//! view (`blogs.md` §14.3). [`FieldView`] turns any extractor into the extractor of one field
//! (the union of that field over the posts), which is how `--field NAME` scores a field with
//! the ordinary scoring path. Imports from the crate: `document`, `params`, `error`.

use super::Extractor;
use crate::document::{Document, Selection, View};
use crate::error::{Error, Result};

/// The field names a post can carry (and `--field` accepts), besides `body`.
pub const FIELDS: [&str; 4] = ["title", "author", "date", "comments"];

/// One post of a page.
#[derive(Debug, Clone)]
pub struct Post {
    /// Its text.
    pub body: Selection,
    /// Its title, if found.
    pub title: Option<Selection>,
    /// The element holding its date, if found (it may hold more: author, comment count).
    pub date: Option<Selection>,
    /// Its author, if found.
    pub author: Option<Selection>,
    /// Its comments, if the family looks for them.
    pub comments: Option<Selection>,
}

impl Post {
    /// The selection of field `name` (`body` or one of [`FIELDS`]).
    pub fn field(&self, name: &str) -> Option<&Selection> {
        match name {
            "body" => Some(&self.body),
            "title" => self.title.as_ref(),
            "date" => self.date.as_ref(),
            "author" => self.author.as_ref(),
            "comments" => self.comments.as_ref(),
            _ => None,
        }
    }
}

/// The posts of a page, in document order.
#[derive(Debug, Clone, Default)]
pub struct Segments {
    /// The posts.
    pub posts: Vec<Post>,
}

impl Segments {
    /// One JSON object per post: `{"post": k, "title": …, "date": …, "author": …, "body": …,
    /// "comments": …}`, absent fields as `null`.
    pub fn to_json(&self, doc: &Document) -> Vec<serde_json::Value> {
        self.posts
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let text = |s: Option<&Selection>| s.map(|s| serde_json::Value::String(doc.render(s)));
                let mut m = serde_json::Map::new();
                m.insert("post".into(), (k + 1).into());
                for f in ["title", "date", "author", "body", "comments"] {
                    m.insert(f.into(), text(p.field(f)).unwrap_or(serde_json::Value::Null));
                }
                serde_json::Value::Object(m)
            })
            .collect()
    }
}

/// The field `name` must be `body` or one of [`FIELDS`].
pub fn check_field(name: &str) -> Result<()> {
    if name == "body" || FIELDS.contains(&name) {
        Ok(())
    } else {
        Err(Error::config(format!("unknown field '{name}' (expected body, {})", FIELDS.join(", "))))
    }
}

/// An extractor that keeps one field of another's segments: the union of that field's
/// selections over the posts, in the inner family's view. A family without segments keeps
/// nothing (it scores 0 on a field, with a note from the command, not an error).
pub struct FieldView {
    inner: Box<dyn Extractor>,
    field: &'static str,
}

impl FieldView {
    /// `inner` seen through field `field` (one of [`FIELDS`]; `body` returns `inner` itself).
    pub fn wrap(inner: Box<dyn Extractor>, field: &str) -> Result<Box<dyn Extractor>> {
        check_field(field)?;
        match FIELDS.iter().find(|f| **f == field) {
            Some(f) => Ok(Box::new(FieldView { inner, field: f })),
            None => Ok(inner),
        }
    }
}

impl Extractor for FieldView {
    fn view(&self) -> View {
        self.inner.view()
    }

    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let Some(seg) = self.inner.segments(doc)? else { return Ok(()) };
        for p in &seg.posts {
            if let Some(s) = p.field(self.field).filter(|s| s.view == out.view) {
                out.units.extend_from_slice(&s.units);
            }
        }
        out.units.sort_unstable();
        out.units.dedup();
        Ok(())
    }

    fn segments(&self, doc: &Document) -> super::Fallible<Option<Segments>> {
        self.inner.segments(doc)
    }

    fn needs_package(&self) -> bool {
        self.inner.needs_package()
    }

    fn needs(&self) -> crate::document::Needs {
        self.inner.needs()
    }
}
