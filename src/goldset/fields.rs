//! Gold fields: what a gold document can carry beside its text (`title`, `author`, `date`,
//! `comments`), read from `goldset.yaml` (or, for comments, a sidecar `<id>.comments.txt`) and
//! filled by the importers where the source has them (WCXB: `title`, `author`,
//! `publish_date`). `evaluate --field NAME` scores an extractor's segments against them.
//! Imports from the crate: `error` and `eval` (the date renderings).

use crate::error::{Error, Result};
use serde::{Deserialize, Deserializer, Serialize};

/// The field names a gold document may carry, in the order tables list them.
pub const NAMES: [&str; 4] = ["title", "author", "date", "comments"];

/// The gold fields of one document (each optional).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fields {
    /// The post's (or page's) title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Who wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// When it was published: ISO 8601 (`2012-05-11`, `2012-05-11T09:30:00Z`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<IsoDate>,
    /// The text of its comments (or a sidecar `<id>.comments.txt` for long text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// On a page of several posts (a blog's front page): each post's own fields, in page order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub posts: Vec<PostFields>,
    /// The feed entry the document was made from (`goldset from-feed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feed: Option<FeedMeta>,
}

/// What `goldset from-feed` records of a document's feed entry (`feed:` in `goldset.yaml`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeedMeta {
    /// `full` (the gold text is the entry's whole content) or `summary` (no gold text).
    pub kind: String,
    /// Words of the entry's text.
    #[serde(default)]
    pub words: usize,
    /// The feed's format: `rss`, `rdf` or `atom`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// A summary entry's text: what a wrapper learns from in place of a gold text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

/// The fields of one post of a page of several posts (`posts:` in `goldset.yaml`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PostFields {
    /// The post's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Who wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// When it was published (ISO 8601).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<IsoDate>,
}

impl PostFields {
    fn get(&self, name: &str) -> Option<&str> {
        match name {
            "title" => self.title.as_deref(),
            "author" => self.author.as_deref(),
            "date" => self.date.as_ref().map(|d| d.0.as_str()),
            _ => None,
        }
    }
}

impl Fields {
    /// The value of field `name` (one of [`NAMES`]), if the document carries it.
    pub fn get(&self, name: &str) -> Option<&str> {
        match name {
            "title" => self.title.as_deref(),
            "author" => self.author.as_deref(),
            "date" => self.date.as_ref().map(|d| d.0.as_str()),
            "comments" => self.comments.as_deref(),
            _ => None,
        }
    }

    /// True when no field is set (on the page or on a post).
    pub fn is_empty(&self) -> bool {
        NAMES.iter().all(|n| self.gold(n).is_none())
    }

    /// The gold of field `name`: the page's own value, else (a page of several posts) the
    /// posts' values in page order, one a line; `None` when neither is there.
    pub fn gold(&self, name: &str) -> Option<String> {
        if let Some(v) = self.get(name) {
            return Some(v.to_string());
        }
        let vals: Vec<&str> = self.posts.iter().filter_map(|p| p.get(name)).collect();
        (!vals.is_empty()).then(|| vals.join("\n"))
    }
}

/// Makes `set` the gold set of field `name`: only the documents that carry it stay, each with
/// the field's value as its gold text ([`Fields::gold`]: on a front page, the posts' values one
/// a line, so a field is scored against the posts, `blogs.md` §15.3). `body` leaves the set as it is. A field no document
/// carries is a usage error naming the fields the set has.
pub fn restrict(set: &mut super::GoldSet, name: &str) -> Result<()> {
    if name == "body" {
        return Ok(());
    }
    if !NAMES.contains(&name) {
        return Err(Error::config(format!("unknown field '{name}' (expected body, {})", NAMES.join(", "))));
    }
    // Feed summaries carry the fields too: scored on them like any page.
    let trainers = std::mem::take(&mut set.trainers);
    set.docs.extend(trainers);
    set.docs.sort_by(|a, b| a.package.cmp(&b.package).then_with(|| a.id.cmp(&b.id)));
    set.docs.retain(|d| d.fields.gold(name).is_some_and(|v| !v.trim().is_empty()));
    if set.docs.is_empty() {
        return Err(Error::config(format!(
            "no gold document carries the field '{name}' (see `cetune goldset stats`; fields are set in goldset.yaml)"
        ))
        .with_path(&set.root));
    }
    // Packages left without documents go; the others keep their order.
    let mut renumber = vec![usize::MAX; set.packages.len()];
    let mut packages = Vec::new();
    for d in &mut set.docs {
        if renumber[d.package] == usize::MAX {
            renumber[d.package] = packages.len();
            packages.push(set.packages[d.package].clone());
        }
        d.package = renumber[d.package];
        d.gold = d.fields.gold(name).unwrap_or_default().into();
    }
    set.packages = packages;
    Ok(())
}

/// A checked ISO 8601 date: `YYYY-MM-DD`, optionally followed by `T` and a time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct IsoDate(pub String);

impl IsoDate {
    /// Checks `s` (the date part must be a real calendar day; any time after it is kept as is).
    pub fn parse(s: &str) -> Result<IsoDate> {
        let s = s.trim();
        ymd(s).ok_or_else(|| {
            Error::config(format!("field 'date': '{s}' is not an ISO 8601 date (expected YYYY-MM-DD, e.g. 2012-05-11)"))
        })?;
        Ok(IsoDate(s.to_string()))
    }

    /// Year, month and day.
    pub fn ymd(&self) -> (i32, u32, u32) {
        ymd(&self.0).unwrap_or((0, 1, 1))
    }

    /// True when `text` contains a rendering of this date ([`crate::eval::date::renderings`]).
    pub fn found_in(&self, text: &str) -> bool {
        crate::eval::date::contains(text, &self.0)
    }
}

/// Year, month, day of `YYYY-MM-DD[T...]`, when they form a calendar day.
pub(crate) fn ymd(s: &str) -> Option<(i32, u32, u32)> {
    let b = s.as_bytes();
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' || (b.len() > 10 && !matches!(b[10], b'T' | b' ')) {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        s.get(r).filter(|t| t.bytes().all(|c| c.is_ascii_digit()))?.parse().ok()
    };
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    (1..=12).contains(&m).then_some(())?;
    (1..=days[m as usize - 1]).contains(&d).then_some(())?;
    clock_ok(s.get(11..).unwrap_or("")).then_some((y as i32, m, d))
}

/// Whether the time after a date (`09:30`, `21:06:22 UTC`, `09:30:00.5+02:00`) names a real
/// time of day: hours to 23, minutes to 59, seconds to 60 (a leap second). What follows the
/// clock (a fraction, a zone) is kept as it is; text that starts with no digit is no clock.
fn clock_ok(rest: &str) -> bool {
    let b = rest.as_bytes();
    let two = |i: usize| -> Option<u32> {
        let d = b.get(i..i + 2)?;
        d.iter().all(u8::is_ascii_digit).then(|| u32::from(d[0] - b'0') * 10 + u32::from(d[1] - b'0'))
    };
    if !b.first().is_some_and(u8::is_ascii_digit) {
        return true;
    }
    let (Some(h), true, Some(m)) = (two(0), b.get(2) == Some(&b':'), two(3)) else { return false };
    let seconds_ok = match (b.get(5), two(6)) {
        (Some(b':'), Some(sec)) => sec <= 60,
        (Some(b':'), None) => false,
        _ => true,
    };
    h <= 23 && m <= 59 && seconds_ok
}

impl<'de> Deserialize<'de> for IsoDate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        IsoDate::parse(&s).map_err(|e| serde::de::Error::custom(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_dates_are_checked_and_rendered() {
        assert!(IsoDate::parse("2012-05-11").is_ok());
        assert!(IsoDate::parse("2012-05-11T09:30:00Z").is_ok());
        assert!(IsoDate::parse("2012-09-06 21:06:22 UTC").is_ok());
        // Issue 35: a time of day that is none was saved.
        for bad in ["2012-05-11T25:00", "2012-05-11T12:60", "2012-05-11 12:30:61", "2012-05-11T1:30"] {
            assert!(IsoDate::parse(bad).is_err(), "{bad}");
        }
        for bad in ["2012-13-01", "2013-02-29", "May 11, 2012", "2012/05/11", "2012-05-11x"] {
            assert!(IsoDate::parse(bad).is_err(), "{bad}");
        }
        let d = IsoDate::parse("2012-05-11").unwrap();
        assert!(d.found_in("Posted on Friday, May 11, 2012 by Ann | 3 comments",));
        assert!(d.found_in("11. Mai 2012",));
        assert!(d.found_in("11 maggio 2012",));
        assert!(d.found_in("on 11.05.2012",));
        assert!(!d.found_in("May 12, 2012",));
    }

    #[test]
    fn restricting_to_a_field_keeps_its_documents_with_the_value_as_gold() {
        let doc = |package: usize, id: &str, title: Option<&str>| crate::goldset::GoldDoc {
            package,
            id: id.into(),
            page: Default::default(),
            gold: "body".into(),
            url: None,
            lang: None,
            fields: Fields { title: title.map(String::from), ..Default::default() },
        };
        let mut set = crate::goldset::GoldSet {
            name: "t".into(),
            root: "t".into(),
            packages: vec!["a".into(), "b".into()],
            docs: vec![doc(0, "1", None), doc(1, "2", Some("A title"))],
            trainers: Vec::new(),
            token_rule: Default::default(),
            skipped: vec![],
            credit: None,
            limits: Default::default(),
        };
        let mut other = set.clone();
        restrict(&mut set, "title").unwrap();
        assert_eq!((set.packages.clone(), set.docs.len(), set.docs[0].package), (vec!["b".to_string()], 1, 0));
        assert_eq!(&*set.docs[0].gold, "A title");
        let e = restrict(&mut other, "author").unwrap_err();
        assert_eq!(e.kind, crate::error::ErrorKind::Config);
        assert!(e.to_string().starts_with("t: no gold document carries the field 'author'"), "{e}");
        assert!(restrict(&mut other, "colour").unwrap_err().to_string().contains("unknown field 'colour'"));
    }

    #[test]
    fn a_front_page_carries_the_fields_of_its_posts_one_a_line() {
        let yaml = r#"{"posts": [{"title": "One", "date": "2012-05-28"}, {"title": "Two", "author": "Ann", "date": "2012-05-26"}]}"#;
        let f: Fields = serde_json::from_str(yaml).unwrap();
        assert_eq!(f.get("title"), None);
        assert_eq!(f.gold("title").as_deref(), Some("One\nTwo"));
        assert_eq!(f.gold("author").as_deref(), Some("Ann"));
        assert_eq!(f.gold("date").as_deref(), Some("2012-05-28\n2012-05-26"));
        assert_eq!(f.gold("comments"), None);
        assert!(!f.is_empty());
        // The page's own value comes first.
        let own = Fields { title: Some("Page".into()), ..f.clone() };
        assert_eq!(own.gold("title").as_deref(), Some("Page"));
        let e = serde_json::from_str::<Fields>(r#"{"posts": [{"date": "28/05/2012"}]}"#).unwrap_err().to_string();
        assert!(e.contains("'28/05/2012' is not an ISO 8601 date"), "{e}");
        let e = serde_json::from_str::<Fields>(r#"{"posts": [{"colour": "red"}]}"#).unwrap_err().to_string();
        assert!(e.contains("colour"), "{e}");
    }

    #[test]
    fn a_malformed_date_in_yaml_is_an_error_naming_the_value() {
        let e = serde_json::from_str::<Fields>(r#"{"date": "yesterday"}"#).unwrap_err().to_string();
        assert!(e.contains("'yesterday' is not an ISO 8601 date"), "{e}");
    }
}
