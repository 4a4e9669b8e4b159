//! The structured outputs on small pages: the exact Markdown of nested lists, a table with
//! `colspan`, a code block, headings inside a kept section and a combination that keeps pieces
//! of several regions; and, on each, the words of the Markdown (read back by the small reader
//! below, which knows only CommonMark's escapes, markers and link syntax) and of the HTML (its
//! text content) against the plain text's.
//!
//! Imports from the crate: `document`, `extract` (the families whose selections are laid out)
//! and `limits`.

use super::*;
use crate::document::{Document, Needs};
use crate::limits::Limits;

fn parse(html: &str) -> Document {
    Document::parse_for(html, &Limits::default(), Needs::ALL | NEEDS).0
}

fn all_dom(doc: &Document) -> Selection {
    Selection { view: View::Dom, units: (0..doc.dom.texts.len() as u32).collect() }
}

/// The words of Markdown as a CommonMark reader shows them: block markers, fences, table
/// delimiter rows, link destinations and images dropped, backslash escapes undone.
fn md_words(md: &str) -> Vec<String> {
    let mut text = String::new();
    let mut fence: Option<String> = None;
    for line in md.lines() {
        let mut l = line.trim_start();
        while let Some(rest) = l.strip_prefix('>') {
            l = rest.trim_start();
        }
        if let Some(f) = &fence {
            if l.trim() == f {
                fence = None;
            } else {
                text.push_str(l);
                text.push('\n');
            }
            continue;
        }
        if l.starts_with("```") {
            fence = Some(l.chars().take_while(|c| *c == '`').collect());
            continue;
        }
        if l.starts_with("| ---") {
            continue;
        }
        l = l.trim_start_matches('#');
        if let Some(rest) = l.strip_prefix("- ") {
            l = rest;
        }
        let digits = l.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && l[digits..].starts_with(". ") {
            l = &l[digits + 2..];
        }
        // Inline: escapes, link brackets and destinations, images, code-span backticks, cells.
        let b: Vec<char> = l.chars().collect();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                '\\' if i + 1 < b.len() && b[i + 1].is_ascii_punctuation() => {
                    text.push(b[i + 1]);
                    i += 2;
                    continue;
                }
                '!' if b.get(i + 1) == Some(&'[') => {
                    while i < b.len() && b[i] != ')' {
                        i += 1;
                    }
                    text.push(' ');
                }
                '[' | '`' => {}
                '|' => text.push(' '),
                ']' if b.get(i + 1) == Some(&'(') => {
                    while i < b.len() && b[i] != ')' {
                        i += 1;
                    }
                }
                c => text.push(c),
            }
            i += 1;
        }
        text.push('\n');
    }
    text.split_whitespace().map(String::from).collect()
}

/// The words of the HTML fragment's text content.
fn html_words(html: &str) -> Vec<String> {
    let mut text = String::new();
    let mut inside = false;
    for c in html.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => text.push(c),
            _ => {}
        }
    }
    let text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&");
    text.split_whitespace().map(String::from).collect()
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// The Markdown of `sel`, after checking its words and the HTML's against the plain text's.
fn checked(doc: &Document, sel: &Selection, opts: Options) -> String {
    let text = doc.render(sel);
    let md = markdown(doc, sel, opts);
    assert_eq!(md_words(&md), words(&text), "markdown:\n{md}");
    let h = html(doc, sel, opts);
    assert_eq!(html_words(&h), words(&text), "html:\n{h}");
    md
}

#[test]
fn nested_lists_keep_their_nesting_markers_and_numbers() {
    let doc = parse(
        "<body><ul><li>One<ul><li>Two</li><li>Three<ol start=4><li>Four</li><li>Five</li></ol></li></ul></li>\
         <li>Six</li></ul><p>After the list.</p></body>",
    );
    let md = checked(&doc, &all_dom(&doc), Options::default());
    assert_eq!(md, "- One\n  - Two\n  - Three\n    4. Four\n    5. Five\n- Six\n\nAfter the list.\n");
}

#[test]
fn a_table_has_its_header_row_and_colspan_expanded_with_empty_cells() {
    let doc = parse(
        "<table><thead><tr><th>Name</th><th>Q1</th><th>Q2</th></tr></thead>\
         <tbody><tr><td colspan=2>Both quarters</td><td>7</td></tr><tr><td>Ann | Bo</td><td>1</td><td>2</td></tr>\
         </tbody></table>",
    );
    let md = checked(&doc, &all_dom(&doc), Options::default());
    assert_eq!(md, "| Name | Q1 | Q2 |\n| --- | --- | --- |\n| Both quarters |  | 7 |\n| Ann \\| Bo | 1 | 2 |\n");
    // A layout table (a table inside it) is written as blocks; the table inside is a data table.
    let doc =
        parse("<table><tr><td><table><tr><td>a</td><td>b</td></tr></table></td><td><p>Text</p></td></tr></table>");
    let md = checked(&doc, &all_dom(&doc), Options::default());
    assert_eq!(md, "| a | b |\n| --- | --- |\n\nText\n");
}

#[test]
fn a_table_with_words_in_one_column_or_only_punctuation_is_written_as_blocks() {
    // An article beside an emptied sidebar cell, and a row of icons split by `|`: no row has
    // words in two cells, so neither is a data table.
    let doc = parse(
        "<table><tr><td><img src=a.gif></td><td><p>The article.</p><p>Its second paragraph.</p></td></tr></table>\
         <table><tr><td><img src=rss.gif></td><td>|</td></tr></table>",
    );
    let md = checked(&doc, &all_dom(&doc), Options::default());
    assert_eq!(md, "The article.\n\nIts second paragraph.\n\n\\|\n");
}

#[test]
fn a_code_block_is_fenced_with_its_language_and_text_is_escaped() {
    let doc = parse(
        "<p>Use *this* with [care] &amp; 1. <code>a_b</code></p>\
         <pre><code class=\"hljs language-rust\">let x = a * b; // ``` no</code></pre><p># not a heading</p>\
         <p>1986. A year</p>",
    );
    let md = checked(&doc, &all_dom(&doc), Options::default());
    assert_eq!(
        md,
        "Use \\*this\\* with \\[care\\] & 1. `a_b`\n\n````rust\nlet x = a * b; // ``` no\n````\n\n\\# not a heading\n\n1986\\. A year\n"
    );
}

#[test]
fn headings_inside_a_kept_section_keep_their_levels_and_the_rest_is_left_out() {
    let page = "<body><nav><a href=/>Home</a> <a href=/news>News</a></nav><article><h1>The title</h1>\
                <p>First <a href=\"/x\">linked</a> paragraph.</p><section><h3>A part</h3><p>More text.</p>\
                <img src=\"/p.png\" alt=\"A picture\"></section></article><footer>Legal</footer></body>";
    let doc = parse(page);
    let article = (0..doc.dom.nodes.len()).find(|&i| doc.dom.nodes[i].tag.name() == "article").unwrap();
    let units: Vec<u32> = doc.dom.units_in(article).collect();
    let sel = Selection { view: View::Dom, units };
    let md = checked(&doc, &sel, Options::default());
    assert_eq!(md, "# The title\n\nFirst linked paragraph.\n\n### A part\n\nMore text.\n");
    // A `!` before a link is no image.
    let bang = parse("<p>Great!<a href=/f>Find it</a></p>");
    assert_eq!(checked(&bang, &all_dom(&bang), Options { links: true, images: false }), "Great\\![Find it](/f)\n");
    let md = checked(&doc, &sel, Options { links: true, images: true });
    assert_eq!(
        md,
        "# The title\n\nFirst [linked](/x) paragraph.\n\n### A part\n\nMore text.\n\n![A picture](/p.png)\n"
    );
    let h = html(&doc, &sel, Options { links: true, images: false });
    assert_eq!(
        h,
        "<article><h1>The title</h1>\n<p>First <a href=\"/x\">linked</a> paragraph.</p>\n<section><h3>A part</h3>\n<p>More text.</p>\n</section>\n</article>\n"
    );
    // The same words as a source-view selection (what combinations return): the same layout.
    let mut src = Selection::new(View::Source);
    doc.select_words(&doc.mask(&sel), &mut src);
    assert_eq!(
        checked(&doc, &src, Options::default()),
        "# The title\n\nFirst linked paragraph.\n\n### A part\n\nMore text.\n"
    );
}

#[test]
fn a_combination_keeping_pieces_of_several_regions_lays_out_each() {
    let page = "<body><div id=menu><ul><li><a href=/a>Alpha menu</a></li><li><a href=/b>Beta menu</a></li></ul></div>\
                <div class=story><h2>Storm hits the coast</h2><p>The storm reached the coast on Monday night and \
                cut power to thousands of homes along the shore, officials said.</p><blockquote><p>We have never \
                seen anything like it, said a resident who has lived there for forty years.</p></blockquote>\
                <table><tr><th>Town</th><th>Homes</th></tr><tr><td>Eastport</td><td>1200</td></tr></table>\
                <ol><li>Stay indoors until the wind drops tonight.</li><li>Report fallen lines to the utility.</li></ol>\
                </div><div class=side><p>Related: <a href=/c>Other story</a></p></div></body>";
    let doc = parse(page);
    // A keep-mask from two regions, as a combination's vote gives (source view): the story's
    // heading and quote, the table and the second list item.
    let text_of = |u: usize| doc.dom.texts.get(u);
    let keep_unit = |u: usize| {
        let t = text_of(u);
        t.starts_with("Storm")
            || t.starts_with("We have")
            || ["Town", "Homes", "Eastport", "1200"].contains(&t)
            || t.starts_with("Report")
    };
    let mut mask = vec![false; doc.source.words.len()];
    for u in (0..doc.dom.texts.len()).filter(|&u| keep_unit(u)) {
        doc.words.words_of(u).iter().for_each(|&w| mask[w as usize] = true);
    }
    let mut sel = Selection::new(View::Source);
    doc.select_words(&mask, &mut sel);
    let md = checked(&doc, &sel, Options::default());
    assert_eq!(
        md,
        "## Storm hits the coast\n\n> We have never seen anything like it, said a resident who has lived there for forty years.\n\n\
         | Town | Homes |\n| --- | --- |\n| Eastport | 1200 |\n\n1. Report fallen lines to the utility.\n"
    );
    // Parsed as `extract` parses for a combination (its needs and the structured outputs', no
    // word map): the tree makes the map itself and lays the page out the same.
    let lean = Document::parse_for(page, &Limits::default(), Needs { source: true, ..NEEDS }).0;
    assert!(!lean.words.is_built());
    assert_eq!(markdown(&lean, &sel, Options::default()), md);
    // And the real combinations on the page: the words hold whatever they keep.
    for name in ["combine", "lqf-then-accb", "vote-soft", "readability", "boilerpipe", "justext", "lqf", "blocks"] {
        let space = crate::extract::space(name).unwrap();
        let ex = crate::extract::build(&crate::extract::Engine::default(), &space.defaults()).unwrap();
        let sel = crate::extract::extract_selection(ex.as_ref(), &doc).unwrap();
        checked(&doc, &sel, Options { links: true, images: true });
    }
}
