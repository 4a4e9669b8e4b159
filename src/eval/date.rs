//! Dates in text: the renderings of a calendar day that count as "the date" when a returned
//! text is checked against a gold date (`--field date`, the paper protocol of BlogBuster).
//! Imports from the crate: nothing.

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

/// Month names of more languages, for finding a date in the page's own language (the
/// improvement to wrapper learning Gkotsis et al. propose).
const MONTHS_ES: [&str; 12] = [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
];
const MONTHS_FR: [&str; 12] = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
];
const MONTHS_PT: [&str; 12] = [
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
];
const MONTHS_NL: [&str; 12] = [
    "januari",
    "februari",
    "maart",
    "april",
    "mei",
    "juni",
    "juli",
    "augustus",
    "september",
    "oktober",
    "november",
    "december",
];
const MONTHS_ID: [&str; 12] = [
    "Januari",
    "Februari",
    "Maret",
    "April",
    "Mei",
    "Juni",
    "Juli",
    "Agustus",
    "September",
    "Oktober",
    "November",
    "Desember",
];

/// The month names of an ISO 639-1 language, when cetune knows them (en, de, it, es, fr, pt,
/// nl, id).
fn months_of(lang: &str) -> Option<[&'static str; 12]> {
    Some(match lang {
        "en" => MONTHS,
        "de" => MONTHS_DE,
        "it" => MONTHS_IT,
        "es" => MONTHS_ES,
        "fr" => MONTHS_FR,
        "pt" => MONTHS_PT,
        "nl" => MONTHS_NL,
        "id" => MONTHS_ID,
        _ => return None,
    })
}

/// The month-name renderings of a date in one language (`May 11, 2012`, `11 May 2012`,
/// `11. Mai 2012`, abbreviated months; Spanish and Portuguese also `11 de mayo de 2012`),
/// lower-cased; none for a language cetune has no month names of.
pub fn renderings_in(y: i32, m: u32, d: u32, lang: &str) -> Vec<String> {
    let Some(names) = months_of(lang) else { return Vec::new() };
    let full = names[m as usize - 1];
    let abbr: String = full.chars().take(3).collect();
    let mut out = Vec::new();
    for mon in [full.to_string(), abbr] {
        out.push(format!("{mon} {d}, {y}"));
        out.push(format!("{mon} {d} {y}"));
        out.push(format!("{d} {mon} {y}"));
        out.push(format!("{d}. {mon} {y}"));
        out.push(format!("{d} {mon}, {y}"));
    }
    if matches!(lang, "es" | "pt") {
        out.push(format!("{d} de {full} de {y}"));
    }
    out.iter().map(|s| s.to_lowercase()).collect()
}

/// The numeric renderings of a date (`5/11/12`, `05/11/2012`, `11/05/2012`, `11.05.2012`,
/// `2012-05-11`, `5/11/2012`, `11/5/2012`).
pub fn numeric(y: i32, m: u32, d: u32) -> Vec<String> {
    let yy = y % 100;
    vec![
        format!("{m}/{d}/{yy:02}"),
        format!("{m:02}/{d:02}/{y}"),
        format!("{d:02}/{m:02}/{y}"),
        format!("{d:02}.{m:02}.{y}"),
        format!("{d}.{m}.{y}"),
        format!("{y}-{m:02}-{d:02}"),
        format!("{m}/{d}/{y}"),
        format!("{d}/{m}/{y}"),
    ]
}

/// Renderings of a date that count as "the date" in a text (`blogs.md` §13.3, extended by the
/// German and Italian month names): `May 11, 2012`, `11 May 2012`, `May 11 2012`, `Mai 11,
/// 2012`, `11. Mai 2012`, `11 maggio 2012`, abbreviated months, `5/11/12`, `05/11/2012`,
/// `11/05/2012`, `11.05.2012`, `2012-05-11`, `5/11/2012`, `11/5/2012`, lower-cased.
pub fn renderings(y: i32, m: u32, d: u32) -> Vec<String> {
    let mut out: Vec<String> = ["en", "de", "it"].iter().flat_map(|l| renderings_in(y, m, d, l)).collect();
    out.extend(numeric(y, m, d));
    out
}

/// True when `text` contains a rendering of the ISO 8601 date `iso` (`2012-05-11`, maybe with
/// a time after it; case and runs of whitespace ignored). False when `iso` is not such a date.
pub fn contains(text: &str, iso: &str) -> bool {
    let num = |r: std::ops::Range<usize>| iso.get(r).and_then(|t| t.parse::<u32>().ok());
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else { return false };
    if !(1..=12).contains(&m) {
        return false;
    }
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    renderings(y as i32, m, d).iter().any(|r| t.contains(r.as_str()))
}

/// The share of the gold dates (ISO 8601, one a line: a page of several posts carries each
/// post's date) whose rendering `text` contains; 0 when `gold` holds no line.
pub fn share(text: &str, gold: &str) -> f64 {
    let dates: Vec<&str> = gold.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if dates.is_empty() {
        return 0.0;
    }
    dates.iter().filter(|d| contains(text, d)).count() as f64 / dates.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_is_found_in_its_english_german_italian_and_numeric_renderings() {
        for t in [
            "Posted on Friday, May 11, 2012 by Ann | 3 comments",
            "11. Mai 2012",
            "11 maggio 2012",
            "on 11.05.2012",
            "5/11/12",
            "2012-05-11",
        ] {
            assert!(contains(t, "2012-05-11"), "{t}");
        }
        assert!(!contains("May 12, 2012", "2012-05-11"));
        assert!(!contains("May 11, 2012", "not a date"));
        assert_eq!(renderings(2012, 5, 11)[0], "may 11, 2012");
        assert!(renderings_in(2013, 7, 15, "es").contains(&"15 de julio de 2013".to_string()));
        assert!(renderings_in(2007, 1, 12, "it").contains(&"gennaio 12, 2007".to_string()));
        assert!(renderings_in(2007, 1, 12, "xx").is_empty());
        // Several posts: the share of their dates found.
        let gold = "2012-05-28\n2012-05-26\n2012-05-24\n";
        assert!((share("Monday, May 28, 2012 ... 24.05.2012", gold) - 2.0 / 3.0).abs() < 1e-12);
        assert!((share("May 28, 2012", "2012-05-28") - 1.0).abs() < 1e-12);
        assert!(share("May 28, 2012", "").abs() < 1e-12);
    }
}
