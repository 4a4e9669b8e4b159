//! The structured outputs on every page of WCXB dev and L3S-GN1 (ignored: needs
//! `../shared/goldsets`): for five families, the words of the Markdown (links and images on)
//! and of the HTML, with the markup stripped, are the words of the plain text, in order. Each
//! page is parsed once for all five families.

use cetune::document::{Document, Needs};
use cetune::structure::{NEEDS, Options};

/// The words of Markdown as a CommonMark reader shows them: block markers, fences, table
/// delimiter rows, link destinations and images dropped, backslash escapes undone (a reading
/// written for this test, apart from the writer).
fn md_words(md: &str) -> Vec<String> {
    let mut text = String::new();
    // An open fence: its backticks and the quote depth it was opened at (its lines carry as
    // many `>` before their content).
    let mut fence: Option<(String, usize)> = None;
    for line in md.lines() {
        let mut l = line.trim_start();
        let mut depth = 0;
        while let Some(rest) = l.strip_prefix('>') {
            if fence.as_ref().is_some_and(|(_, d)| depth == *d) {
                break;
            }
            l = rest.trim_start();
            depth += 1;
        }
        if let Some((f, _)) = &fence {
            if l.trim() == f {
                fence = None;
            } else {
                text.push_str(l);
                text.push('\n');
            }
            continue;
        }
        let mut rest = l;
        // Markers of list items (nested ones start a line too) and quotes inside items.
        loop {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if let Some(r) = rest.strip_prefix("- ") {
                rest = r;
            } else if digits > 0 && rest[digits..].starts_with(". ") {
                rest = &rest[digits + 2..];
            } else if let Some(r) = rest.strip_prefix("> ") {
                rest = r;
            } else {
                break;
            }
        }
        l = rest;
        if l.starts_with("```") {
            fence = Some((l.chars().take_while(|c| *c == '`').collect(), depth));
            continue;
        }
        if l.starts_with("| ---") {
            continue;
        }
        if l.starts_with('#') {
            l = l.trim_start_matches('#');
        }
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
                    // An image: its alt text (up to the unescaped `]`) and its destination
                    // (`(...)` or `(<...>)`) are no words of the text.
                    i += 2;
                    while i < b.len() && b[i] != ']' {
                        i += if b[i] == '\\' { 2 } else { 1 };
                    }
                    if b.get(i + 2) == Some(&'<') {
                        while i < b.len() && b[i] != '>' {
                            i += 1;
                        }
                    }
                    while i < b.len() && b[i] != ')' {
                        i += 1;
                    }
                    text.push(' ');
                }
                '`' => {
                    // A code span: its content as it is.
                    let run = b[i..].iter().take_while(|c| **c == '`').count();
                    let fence: String = "`".repeat(run);
                    let rest: String = b[i + run..].iter().collect();
                    match rest.find(&fence) {
                        Some(end) => {
                            text.push_str(&rest[..end]);
                            i += run + rest[..end].chars().count() + run;
                            continue;
                        }
                        None => {
                            i += run;
                            continue;
                        }
                    }
                }
                '[' => {}
                '|' => text.push(' '),
                ']' if b.get(i + 1) == Some(&'(') => {
                    if b.get(i + 2) == Some(&'<') {
                        while i < b.len() && b[i] != '>' {
                            i += 1;
                        }
                    }
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

/// The words of an HTML fragment's text content.
fn html_words(html: &str) -> Vec<String> {
    let mut text = String::new();
    let mut inside = false;
    for c in html.chars() {
        match c {
            '<' => inside = true,
            '>' if inside => inside = false,
            c if !inside => text.push(c),
            _ => {}
        }
    }
    let text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&");
    text.split_whitespace().map(String::from).collect()
}

#[test]
fn md_words_reads_the_markup_it_is_meant_for() {
    let md = "# A \\# b\n\n- x [link](<u v>) y\n  1. `c|d` e\\*\n\n| a \\| b | c |\n| --- | --- |\n\n```rust\nlet *x;\n> y\n```\n\n> ```\n> > z\n> ```\n\n> q ![alt (x) \\]](<s (1).png>) r \\![a](b)\n";
    assert_eq!(
        md_words(md),
        [
            "A", "#", "b", "x", "link", "y", "c|d", "e*", "a", "|", "b", "c", "let", "*x;", ">", "y", ">", "z", "q",
            "r", "!a"
        ]
    );
    assert_eq!(html_words("<p>a &amp; <b>b</b>c</p>\n<p>d</p>"), ["a", "&", "bc", "d"]);
}

#[test]
#[ignore = "needs ../shared/goldsets"]
fn markdown_and_html_hold_the_words_of_the_text_on_every_wcxb_dev_and_l3s_page() {
    let families = ["full", "readability", "lqf", "boilerpipe", "justext"];
    let exs: Vec<_> = families
        .iter()
        .map(|f| {
            cetune::extract::build(&cetune::extract::Engine::default(), &cetune::extract::space(f).unwrap().defaults())
                .unwrap()
        })
        .collect();
    let needs = exs.iter().fold(NEEDS | Needs::LANG, |n, e| n | e.needs());
    let limits = cetune::limits::Limits::default();
    let opts = Options { links: true, images: true };
    for (format, name) in [("wcxb", "wcxb-dev"), ("l3s", "l3s-gn1")] {
        let set = cetune::goldset::native::open(&crate::real_data::imported(format, name), false).unwrap();
        let failures = std::sync::Mutex::new(Vec::new());
        let pages = std::sync::atomic::AtomicUsize::new(0);
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..std::thread::available_parallelism().map_or(2, |n| n.get()) {
                s.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(d) = set.docs.get(i) else { break };
                        let Ok((html, _)) = d.read_page(&limits) else { continue };
                        let mut doc = Document::parse_for(&html, &limits, needs).0;
                        if d.lang.is_some() {
                            doc.set_lang(d.lang.clone());
                        }
                        pages.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        for (f, ex) in families.iter().zip(&exs) {
                            let sel = cetune::extract::extract_selection(ex.as_ref(), &doc).unwrap();
                            let text = doc.render(&sel);
                            let want: Vec<String> = text.split_whitespace().map(String::from).collect();
                            let md = cetune::structure::markdown(&doc, &sel, opts);
                            let h = cetune::structure::html(&doc, &sel, opts);
                            for (kind, got) in [("markdown", md_words(&md)), ("html", html_words(&h))] {
                                if got != want {
                                    let at = got
                                        .iter()
                                        .zip(&want)
                                        .position(|(a, b)| a != b)
                                        .unwrap_or(got.len().min(want.len()));
                                    let lo = at.saturating_sub(3);
                                    failures.lock().unwrap().push(format!(
                                        "{name} {} {f} {kind}: {} vs {} words; at {at}: {:?} vs {:?}",
                                        d.id,
                                        got.len(),
                                        want.len(),
                                        &got[lo.min(got.len())..(at + 4).min(got.len())],
                                        &want[lo.min(want.len())..(at + 4).min(want.len())]
                                    ));
                                }
                            }
                        }
                    }
                });
            }
        });
        let failures = failures.into_inner().unwrap();
        let pages = pages.into_inner();
        assert!(pages >= set.docs.len() - 2, "{name}: {pages} pages read of {}", set.docs.len());
        assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
    }
}
