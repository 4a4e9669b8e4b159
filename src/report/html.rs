//! The HTML report of a run: one self-contained page (inline SVG, CSS and one small inline script
//! that sorts tables; nothing loaded from outside the file; links only to files beside it), built as
//! a pure function of its sections so it can be tested without a run folder. What goes into it is
//! chosen by `study::write_reports`. Every table sits in a container that scrolls sideways on a
//! narrow screen, so the page itself never does.

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
    /// A table folded away under a summary line: summary, header, rows.
    FoldedTable(String, Vec<String>, Vec<Vec<String>>),
    /// The page's lead: a first line in large type, then the lines that qualify it.
    Headline(Vec<String>),
    /// A table the reader sorts by clicking a column's header, in a container of at most
    /// `max_height` pixels that scrolls (0: no limit); cells may link to a file.
    Sortable {
        /// Column names.
        head: Vec<String>,
        /// Rows of cells.
        rows: Vec<Vec<Cell>>,
        /// Height of the scrolling container in pixels (0: as tall as the table).
        max_height: u32,
    },
    /// Links to files beside the page: (label, relative address).
    Links(Vec<(String, String)>),
}

/// A cell of a [`Body::Sortable`] table: its text (numbers sort as numbers) and links (label,
/// relative address).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cell {
    /// Shown text.
    pub text: String,
    /// Links shown after the text.
    pub links: Vec<(String, String)>,
}

impl Cell {
    /// A cell of plain text.
    pub fn text(t: impl Into<String>) -> Cell {
        Cell { text: t.into(), links: Vec::new() }
    }
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

const STYLE: &str = "body{font-family:sans-serif;margin:1em auto;max-width:1200px;padding:0 1em;color:#222;line-height:1.35}\
h1{font-size:1.3em;margin:.3em 0}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}\
.wrap{overflow-x:auto;max-width:100%}.wrap.tall{overflow-y:auto}\
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}\
td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top;overflow-wrap:anywhere}\
th{background:#f3f3f3;position:sticky;top:0}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
th.sort{cursor:pointer}th.sort:after{content:' \\2195';color:#999}td a{margin-left:.4em;font-size:.85em}\
.plot svg{max-width:100%;height:auto;display:block;margin:.5em 0}\
.bar{background:#3b528b;height:1em;display:inline-block;vertical-align:middle}td.barcell{width:40%;min-width:6em}\
.headline{border-left:5px solid #3b528b;background:#f4f6fb;padding:.5em 1em;margin:.6em 0}\
.headline p{margin:.25em 0}.headline p.lead{font-size:1.15em;font-weight:bold}\
pre{background:#f6f6f6;padding:.5em;overflow:auto;font-size:.85em;white-space:pre-wrap}\
nav{font-size:.85em}nav a{margin-right:.8em;white-space:nowrap;display:inline-block}\
ul.links{columns:16em;padding-left:1.2em}details{margin:.5em 0}summary{cursor:pointer}";

/// Sorts a `table.sortable` by the clicked header's column: numbers as numbers (a cell's
/// `data-v` when it has one), text as text; a second click reverses.
const SCRIPT: &str = "document.querySelectorAll('table.sortable th').forEach(function(th,i){th.classList.add('sort');\
th.addEventListener('click',function(){var t=th.closest('table'),b=t.tBodies[0],r=Array.from(b.rows),\
d=th.dataset.dir==='a'?'d':'a';th.dataset.dir=d;var v=function(x){var c=x.cells[i],s=c?(c.dataset.v||c.textContent):'',\
n=parseFloat(s);return isNaN(n)?s:n;};r.sort(function(x,y){var a=v(x),c=v(y),o=(typeof a==='number'&&typeof c==='number')?a-c:\
String(a).localeCompare(String(c));return d==='a'?o:-o;});r.forEach(function(x){b.appendChild(x);});});});";

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
    s += "<p><small>Written by cetune; self-contained: nothing is loaded from outside this file.</small></p>\n";
    if sections.iter().any(|sec| sec.body.iter().any(|b| matches!(b, Body::Sortable { .. }))) {
        s += &format!("<script>{SCRIPT}</script>\n");
    }
    s + "</body>\n</html>\n"
}

/// A table's rows of plain-text cells.
fn plain_rows(rows: &[Vec<String>]) -> String {
    let mut s = String::new();
    for r in rows {
        s += "<tr>";
        for c in r {
            let class = if numeric(c) { " class=\"n\"" } else { "" };
            s += &format!("<td{class}>{}</td>", escape(c));
        }
        s += "</tr>\n";
    }
    s
}

fn head_row(head: &[String]) -> String {
    let mut s = String::from("<tr>");
    for h in head {
        s += &format!("<th>{}</th>", escape(h));
    }
    s + "</tr>\n"
}

fn body(b: &Body) -> String {
    match b {
        Body::Table(head, rows) => {
            format!("<div class=\"wrap\"><table>\n{}{}</table></div>\n", head_row(head), plain_rows(rows))
        }
        Body::FoldedTable(summary, head, rows) => format!(
            "<details><summary>{}</summary><div class=\"wrap\"><table>\n{}{}</table></div></details>\n",
            escape(summary),
            head_row(head),
            plain_rows(rows)
        ),
        Body::Headline(lines) => {
            let mut s = String::from("<div class=\"headline\">");
            for (k, l) in lines.iter().enumerate() {
                s += &format!("<p{}>{}</p>", if k == 0 { " class=\"lead\"" } else { "" }, escape(l));
            }
            s + "</div>\n"
        }
        Body::Sortable { head, rows, max_height } => {
            let (class, style) = if *max_height > 0 {
                (" tall", format!(" style=\"max-height:{max_height}px\""))
            } else {
                ("", String::new())
            };
            let mut s = format!(
                "<div class=\"wrap{class}\"{style}><table class=\"sortable\">\n<thead>{}</thead>\n<tbody>\n",
                head_row(head).trim_end()
            );
            for r in rows {
                s += "<tr>";
                for c in r {
                    let class = if numeric(&c.text) { " class=\"n\"" } else { "" };
                    s += &format!("<td{class}>{}", escape(&c.text));
                    for (label, href) in &c.links {
                        s += &format!("<a href=\"{}\">{}</a>", escape(href), escape(label));
                    }
                    s += "</td>";
                }
                s += "</tr>\n";
            }
            s + "</tbody></table></div>\n"
        }
        Body::Links(links) => {
            let mut s = String::from("<ul class=\"links\">");
            for (label, href) in links {
                s += &format!("<li><a href=\"{}\">{}</a></li>", escape(href), escape(label));
            }
            s + "</ul>\n"
        }
        Body::Svg(svg) => format!("<div class=\"plot\">{}</div>\n", inline_svg(svg)),
        Body::Bars(bars) => {
            let mut s = String::from("<div class=\"wrap\"><table>\n");
            for (label, x) in bars {
                let x = if x.is_finite() { x.clamp(0.0, 1.0) } else { 0.0 };
                s += &format!(
                    "<tr><td>{}</td><td class=\"n\">{x:.3}</td><td class=\"barcell\"><span class=\"bar\" style=\"width:{:.1}%\"></span></td></tr>\n",
                    escape(label),
                    x * 100.0
                );
            }
            s + "</table></div>\n"
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

    #[test]
    fn the_lead_sortable_tables_and_links_render_escaped_and_the_sorter_comes_with_them() {
        let cell = Cell { text: "d<1>".into(), links: vec![("gold".into(), "../gs/p/d 1.txt".into())] };
        let sections = vec![Section {
            title: "Lead".into(),
            body: vec![
                Body::Headline(vec!["best & more".into(), "second".into()]),
                Body::Sortable {
                    head: vec!["doc".into(), "Δ".into()],
                    rows: vec![vec![cell, Cell::text("-0.5")]],
                    max_height: 300,
                },
                Body::FoldedTable("s".into(), vec!["k".into()], vec![vec!["v".into()]]),
                Body::Links(vec![("top.csv".into(), "top.csv".into())]),
            ],
        }];
        let html = page("t", &sections);
        assert!(
            html.contains("<div class=\"headline\"><p class=\"lead\">best &amp; more</p><p>second</p></div>"),
            "{html}"
        );
        assert!(
            html.contains("<div class=\"wrap tall\" style=\"max-height:300px\"><table class=\"sortable\">"),
            "{html}"
        );
        assert!(
            html.contains("<td>d&lt;1&gt;<a href=\"../gs/p/d 1.txt\">gold</a></td><td class=\"n\">-0.5</td>"),
            "{html}"
        );
        assert!(html.contains("<details><summary>s</summary><div class=\"wrap\"><table>"), "{html}");
        assert!(html.contains("<li><a href=\"top.csv\">top.csv</a></li>"));
        assert_eq!(html.matches("<script>").count(), 1, "the sorter, once");
        assert!(!page("t", &[]).contains("<script"), "no sortable table, no script");
    }
}
