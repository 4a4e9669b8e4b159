//! Gottron's Table 3 layout: a row per setting, a column per package, then the macro average
//! (and the mean over documents, `doc-mean`, which the paper does not report; it is no micro
//! average: documents are averaged, not their word counts pooled). Written as CSV and markdown.

use super::f3;
use crate::error::Result;
use std::path::Path;

/// One row: a setting's F1 per package and its averages.
#[derive(Debug, Clone, PartialEq)]
pub struct Table3Row {
    /// The setting (e.g. `accb r=40,t=0.75`).
    pub label: String,
    /// Mean F1 per package (`None`: no document in that package).
    pub per_package: Vec<Option<f64>>,
    /// Macro-averaged precision, recall and F1.
    pub macro_prf: (f64, f64, f64),
    /// Mean F1 over documents (`doc-mean`; called "micro F1" before, which it is not).
    pub doc_mean_f1: f64,
    /// Documents that could not be scored.
    pub errors: usize,
    /// Bootstrap 95% half-widths of the macro and doc-mean F1 (`compare --bootstrap N`).
    pub ci: Option<(f64, f64)>,
    /// Pages where the setting returned anything, of the pages scored (the `fired` column: a
    /// family that abstains is judged on where it fires).
    pub fired: Option<(usize, usize)>,
}

/// The table.
#[derive(Debug, Clone, PartialEq)]
pub struct Table3 {
    /// Package names (columns).
    pub packages: Vec<String>,
    /// Documents per package.
    pub package_docs: Vec<usize>,
    /// Rows, in the order given.
    pub rows: Vec<Table3Row>,
}

impl Table3 {
    /// Sorts rows best first by macro F1 (stable).
    pub fn sort_best_first(&mut self) {
        self.rows.sort_by(|a, b| b.macro_prf.2.total_cmp(&a.macro_prf.2));
    }

    /// The markdown rendering; with many packages (more than 20) the per-package columns are
    /// left out and the CSV holds them.
    pub fn markdown(&self, title: &str, credit: Option<&str>) -> String {
        let wide = self.packages.len() <= 20;
        let mut s = format!("# {title}\n\n");
        let mut head = vec!["setting".to_string()];
        if wide {
            head.extend(self.packages.iter().zip(&self.package_docs).map(|(p, n)| format!("{p} ({n})")));
        }
        let ci = self.rows.iter().any(|r| r.ci.is_some());
        head.extend(["macro P", "macro R", "**macro F1**", "doc-mean F1", "errors"].map(String::from));
        let fired = self.rows.iter().any(|r| r.fired.is_some());
        if fired {
            head.push("fired".into());
        }
        if ci {
            head.extend(["macro F1 95% CI", "doc-mean F1 95% CI"].map(String::from));
        }
        s += &format!("| {} |\n|{}\n", head.join(" | "), "---|".repeat(head.len()));
        for r in &self.rows {
            let mut cells = vec![r.label.clone()];
            if wide {
                cells.extend(r.per_package.iter().map(|v| v.map_or("-".into(), f3)));
            }
            cells.extend([
                f3(r.macro_prf.0),
                f3(r.macro_prf.1),
                format!("**{}**", f3(r.macro_prf.2)),
                f3(r.doc_mean_f1),
                r.errors.to_string(),
            ]);
            if fired {
                cells.push(r.fired.map_or("-".into(), |(k, n)| format!("{k}/{n}")));
            }
            if ci {
                let pm = |x: Option<f64>| x.map_or("-".into(), |x| format!("± {}", f3(x)));
                cells.extend([pm(r.ci.map(|c| c.0)), pm(r.ci.map(|c| c.1))]);
            }
            s += &format!("| {} |\n", cells.join(" | "));
        }
        if !wide {
            s += &format!("\n{} packages: per-package F1 in the CSV file.\n", self.packages.len());
        }
        if ci {
            s += "\n95% CI: ±1.96 × the standard deviation of the figure over bootstrap resamples of the pages (the Scrapinghub benchmark's convention).\n";
        }
        if let Some(c) = credit {
            s += &format!("\nGold set: {c}\n");
        }
        s
    }

    /// Writes the CSV rendering: `setting`, one column per package, `macro_precision`,
    /// `macro_recall`, `macro_f1`, `doc_mean_f1`, `errors`, and with a bootstrap `macro_f1_ci`,
    /// `doc_mean_f1_ci` (95% half-widths).
    pub fn write_csv(&self, path: &Path) -> Result<()> {
        let mut head = vec!["setting".to_string()];
        head.extend(self.packages.iter().cloned());
        head.extend(["macro_precision", "macro_recall", "macro_f1", "doc_mean_f1", "errors"].map(String::from));
        let fired = self.rows.iter().any(|r| r.fired.is_some());
        if fired {
            head.extend(["fired", "scored"].map(String::from));
        }
        let ci = self.rows.iter().any(|r| r.ci.is_some());
        if ci {
            head.extend(["macro_f1_ci", "doc_mean_f1_ci"].map(String::from));
        }
        let mut rows = vec![head];
        for r in &self.rows {
            let mut rec = vec![r.label.clone()];
            rec.extend(r.per_package.iter().map(|v| v.map_or(String::new(), |x| format!("{x:.6}"))));
            rec.extend([r.macro_prf.0, r.macro_prf.1, r.macro_prf.2, r.doc_mean_f1].map(|x| format!("{x:.6}")));
            rec.push(r.errors.to_string());
            if fired {
                let (k, n) = r.fired.unwrap_or_default();
                rec.extend([k.to_string(), n.to_string()]);
            }
            if ci {
                rec.extend(
                    r.ci.map_or([String::new(), String::new()], |c| [format!("{:.6}", c.0), format!("{:.6}", c.1)]),
                );
            }
            rows.push(rec);
        }
        super::csv::write(path, rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_has_a_column_per_package_and_the_macro_average() {
        let t = Table3 {
            packages: vec!["bbc".into(), "wiki".into()],
            package_docs: vec![3, 2],
            rows: vec![Table3Row {
                label: "lqf t=0.25".into(),
                per_package: vec![Some(0.5), None],
                macro_prf: (0.4, 0.9, 0.5),
                doc_mean_f1: 0.45,
                errors: 0,
                ci: None,
                fired: None,
            }],
        };
        let md = t.markdown("F1", Some("CC-BY"));
        assert!(
            md.contains("| setting | bbc (3) | wiki (2) | macro P | macro R | **macro F1** | doc-mean F1 | errors |"),
            "{md}"
        );
        assert!(md.contains("| lqf t=0.25 | 0.500 | - | 0.400 | 0.900 | **0.500** | 0.450 | 0 |"), "{md}");
        assert!(md.ends_with("Gold set: CC-BY\n"));
        let mut t = t;
        t.rows[0].ci = Some((0.0123, 0.02));
        let md = t.markdown("F1", None);
        assert!(md.contains("| errors | macro F1 95% CI | doc-mean F1 95% CI |"), "{md}");
        assert!(md.contains("| **0.500** | 0.450 | 0 | ± 0.012 | ± 0.020 |"), "{md}");
        t.rows[0].fired = Some((2, 5));
        let md = t.markdown("F1", None);
        assert!(md.contains("| errors | fired | macro F1 95% CI |"), "{md}");
        assert!(md.contains("| 0.450 | 0 | 2/5 | ± 0.012 |"), "{md}");
    }
}
