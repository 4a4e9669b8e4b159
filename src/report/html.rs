//! The HTML report of a run: one self-contained page (inline SVG and CSS, no script, no link to
//! anything outside the file), built as a pure function of its sections so it can be tested
//! without a run folder. What goes into it is chosen by `study::write_reports`.

/// What a section shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// A table: header and rows of cells (plain text, escaped here).
    Table(Vec<String>, Vec<Vec<String>>),
    /// An SVG image, inlined as it is (an XML declaration or doctype before `<svg` is dropped).
    Svg(String),
    /// Horizontal bars: a label and a share in [0, 1] each.
    Bars(Vec<(String, f64)>),
    /// A paragraph of plain text.
    Text(String),
    /// Preformatted text, folded away under a summary line.
    Folded(String, String),
}

/// A titled part of the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// Heading.
    pub title: String,
    /// Contents, in order.
    pub body: Vec<Body>,
}

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The `<svg …>…</svg>` part of an SVG file, or nothing when it holds none.
fn inline_svg(svg: &str) -> &str {
    match (svg.find("<svg"), svg.rfind("</svg>")) {
        (Some(a), Some(b)) if b > a => &svg[a..b + "</svg>".len()],
        _ => "",
    }
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em auto;max-width:1250px;padding:0 1em;color:#222}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}\
td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}\
th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}\
.plot svg{max-width:100%;height:auto;display:block;margin:.5em 0}\
.bar{background:#3b528b;height:1em;display:inline-block;vertical-align:middle}\
pre{background:#f6f6f6;padding:.5em;overflow:auto;font-size:.85em}nav a{margin-right:1em}";

/// Whether a cell reads as a number (aligned right).
fn numeric(s: &str) -> bool {
    let t = s.trim_start_matches("± ").trim_start_matches("**").trim_end_matches("**");
    !t.is_empty() && t.parse::<f64>().is_ok()
}

/// The page: a title, a table of contents, then every section.
pub fn page(title: &str, sections: &[Section]) -> String {
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{t}</h1>\n<nav>",
        t = escape(title)
    );
    for (k, sec) in sections.iter().enumerate() {
        s += &format!("<a href=\"#s{k}\">{}</a>", escape(&sec.title));
    }
    s += "</nav>\n";
    for (k, sec) in sections.iter().enumerate() {
        s += &format!("<section id=\"s{k}\">\n<h2>{}</h2>\n", escape(&sec.title));
        for b in &sec.body {
            s += &body(b);
        }
        s += "</section>\n";
    }
    s += "<p><small>Written by cetune; self-contained: no scripts, no external files.</small></p>\n</body>\n</html>\n";
    s
}

fn body(b: &Body) -> String {
    match b {
        Body::Table(head, rows) => {
            let mut s = String::from("<table>\n<tr>");
            for h in head {
                s += &format!("<th>{}</th>", escape(h));
            }
            s += "</tr>\n";
            for r in rows {
                s += "<tr>";
                for c in r {
                    let class = if numeric(c) { " class=\"n\"" } else { "" };
                    s += &format!("<td{class}>{}</td>", escape(c));
                }
                s += "</tr>\n";
            }
            s + "</table>\n"
        }
        Body::Svg(svg) => format!("<div class=\"plot\">{}</div>\n", inline_svg(svg)),
        Body::Bars(bars) => {
            let mut s = String::from("<table>\n");
            for (label, x) in bars {
                let x = if x.is_finite() { x.clamp(0.0, 1.0) } else { 0.0 };
                s += &format!(
                    "<tr><td>{}</td><td class=\"n\">{x:.3}</td><td style=\"width:320px\"><span class=\"bar\" style=\"width:{:.1}%\"></span></td></tr>\n",
                    escape(label),
                    x * 100.0
                );
            }
            s + "</table>\n"
        }
        Body::Text(t) => format!("<p>{}</p>\n", escape(t)),
        Body::Folded(summary, text) => {
            format!("<details><summary>{}</summary><pre>{}</pre></details>\n", escape(summary), escape(text))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_self_contained_and_escapes_text() {
        let sections = vec![
            Section {
                title: "Table <2>".into(),
                body: vec![Body::Table(vec!["k".into(), "f".into()], vec![vec!["a&b".into(), "0.5".into()]])],
            },
            Section {
                title: "Plot".into(),
                body: vec![
                    Body::Svg("<?xml version=\"1.0\"?>\n<svg width=\"10\"><circle r=\"2\"/></svg>\n".into()),
                    Body::Bars(vec![("t".into(), 0.25)]),
                    Body::Folded("yaml".into(), "x: <1>".into()),
                ],
            },
        ];
        let html = page("Run \"x\"", &sections);
        assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<title>Run &quot;x&quot;</title>"));
        assert!(html.contains("<h2>Table &lt;2&gt;</h2>") && html.contains("<td>a&amp;b</td><td class=\"n\">0.5</td>"));
        assert!(html.contains("<div class=\"plot\"><svg width=\"10\"><circle r=\"2\"/></svg></div>"), "{html}");
        assert!(!html.contains("<?xml"));
        assert!(html.contains("width:25.0%") && html.contains("<pre>x: &lt;1&gt;</pre>"));
        for external in ["<script", "src=", "http://", "https://", "<link"] {
            assert!(!html.contains(external), "{external}");
        }
    }
}
