//! Gold fields: what a gold document can carry beside its text (`title`, `author`, `date`,
//! `comments`), read from `goldset.yaml` (or, for comments, a sidecar `<id>.comments.txt`) and
//! filled by the importers where the source has them (WCXB: `title`, `author`,
//! `publish_date`). `evaluate --field NAME` scores an extractor's segments against them.
//! Imports from the crate: `error`.

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

    /// True when no field is set.
    pub fn is_empty(&self) -> bool {
        NAMES.iter().all(|n| self.get(n).is_none())
    }
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
}

/// Year, month, day of `YYYY-MM-DD[T...]`, when they form a calendar day.
fn ymd(s: &str) -> Option<(i32, u32, u32)> {
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
    (1..=days[m as usize - 1]).contains(&d).then_some((y as i32, m, d))
}

impl<'de> Deserialize<'de> for IsoDate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        IsoDate::parse(&s).map_err(|e| serde::de::Error::custom(e.to_string()))
    }
}

/// English month names (dates are rendered in these and in numeric forms).
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
/// German and Italian month names (the synthetic blog set writes dates in both).
const MONTHS_DE: [&str; 12] = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
];
const MONTHS_IT: [&str; 12] = [
    "gennaio",
    "febbraio",
    "marzo",
    "aprile",
    "maggio",
    "giugno",
    "luglio",
    "agosto",
    "settembre",
    "ottobre",
    "novembre",
    "dicembre",
];

/// Renderings of a date that count as "the date" in a text (`blogs.md` §13.3, extended by the
/// German and Italian month names): `May 11, 2012`, `11 May 2012`, `May 11 2012`, `Mai 11,
/// 2012`, `11. Mai 2012`, `11 maggio 2012`, abbreviated months, `5/11/12`, `05/11/2012`,
/// `11/05/2012`, `11.05.2012`, `2012-05-11`, `5/11/2012`, `11/5/2012`, lower-cased.
pub fn renderings(date: &IsoDate) -> Vec<String> {
    let (y, m, d) = date.ymd();
    let mut out = Vec::new();
    for names in [MONTHS, MONTHS_DE, MONTHS_IT] {
        let full = names[m as usize - 1];
        let abbr: String = full.chars().take(3).collect();
        for mon in [full.to_string(), abbr] {
            out.push(format!("{mon} {d}, {y}"));
            out.push(format!("{mon} {d} {y}"));
            out.push(format!("{d} {mon} {y}"));
            out.push(format!("{d}. {mon} {y}"));
            out.push(format!("{d} {mon}, {y}"));
        }
    }
    let yy = y % 100;
    out.extend([
        format!("{m}/{d}/{yy:02}"),
        format!("{m:02}/{d:02}/{y}"),
        format!("{d:02}/{m:02}/{y}"),
        format!("{d:02}.{m:02}.{y}"),
        format!("{d}.{m}.{y}"),
        format!("{y}-{m:02}-{d:02}"),
        format!("{m}/{d}/{y}"),
        format!("{d}/{m}/{y}"),
    ]);
    out.iter().map(|s| s.to_lowercase()).collect()
}

/// True when `text` contains a rendering of `date` (case and runs of whitespace ignored).
pub fn contains_date(text: &str, date: &IsoDate) -> bool {
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    renderings(date).iter().any(|r| t.contains(r.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_dates_are_checked_and_rendered() {
        assert!(IsoDate::parse("2012-05-11").is_ok());
        assert!(IsoDate::parse("2012-05-11T09:30:00Z").is_ok());
        for bad in ["2012-13-01", "2013-02-29", "May 11, 2012", "2012/05/11", "2012-05-11x"] {
            assert!(IsoDate::parse(bad).is_err(), "{bad}");
        }
        let d = IsoDate::parse("2012-05-11").unwrap();
        assert!(contains_date("Posted on Friday, May 11, 2012 by Ann | 3 comments", &d));
        assert!(contains_date("11. Mai 2012", &d));
        assert!(contains_date("11 maggio 2012", &d));
        assert!(contains_date("on 11.05.2012", &d));
        assert!(!contains_date("May 12, 2012", &d));
    }

    #[test]
    fn a_malformed_date_in_yaml_is_an_error_naming_the_value() {
        let e = serde_json::from_str::<Fields>(r#"{"date": "yesterday"}"#).unwrap_err().to_string();
        assert!(e.contains("'yesterday' is not an ISO 8601 date"), "{e}");
    }
}
