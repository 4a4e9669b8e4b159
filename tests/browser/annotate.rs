//! The annotation app driven in headless Chromium through chromedriver.

use crate::annotate_server::Server;
use crate::util::{tmp, write};
use crate::webdriver::Driver;
use serde_json::{Value, json};
use std::path::Path;

const NEWS: &str = include_str!("../data/annotate-news.html");

/// The app in headless Chromium: the pre-fill shown, keyboard and pointer toggles, a field
/// typed in, save, the overwrite confirmation, the page list.
pub fn the_app_in_a_real_browser_prefills_toggles_and_saves_the_kept_blocks() {
    let base = tmp("annot-browser");
    let set = base.join("set");
    write(&set.join("example-news.org/news.html"), NEWS);
    write(&set.join("example-news.org/other.html"), "<h1>Other</h1><p>Another page.</p>");
    let driver = Driver::start(&base.join("profile"));
    let srv = Server::start(&set, &["--prefill", "density"]);
    let (_, page) = srv.get("/api/page?id=example-news.org/news");
    let page: Value = serde_json::from_str(&page).unwrap();
    let blocks: Vec<(String, bool)> = page["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["text"].as_str().unwrap().into(), b["prefill"] == true))
        .collect();
    let n = blocks.len();
    assert!(n > 10, "{page}");
    driver.call("POST", "/url", Some(&json!({"url": format!("http://127.0.0.1:{}/?t={}", srv.port, srv.token)})));
    driver.wait(&format!("return document.querySelectorAll('#blocks li').length === {n}"));
    // The pre-fill is shown: the same blocks kept as the server's pre-fill.
    let shown = driver
        .js("return Array.from(document.querySelectorAll('#blocks li')).map(li => li.classList.contains('keep'))");
    let pre: Vec<bool> = blocks.iter().map(|b| b.1).collect();
    assert_eq!(shown, json!(pre), "the pre-fill is shown");
    assert!(pre.iter().any(|k| *k) && pre.iter().any(|k| !*k), "density keeps some blocks only: {pre:?}");
    // Keyboard: toggle block 0, move to block 2, mark, move to block 4, toggle the range, undo
    // it, toggle block 4 alone, then a click on the last block and save.
    let mut want = pre.clone();
    driver.keys(&[" ", "j", "j", "m", "j", "j", "r", "u", "x"]);
    want[0] = !want[0];
    want[4] = !want[4];
    let last =
        driver.call("POST", "/element", Some(&json!({"using": "css selector", "value": "#blocks li:last-child"})));
    let eid = last.as_object().unwrap().values().next().unwrap().as_str().unwrap().to_string();
    driver.call("POST", &format!("/element/{eid}/click"), Some(&json!({})));
    want[n - 1] = !want[n - 1];
    // A gold field typed in (its keys do not toggle blocks), then the focus back to the page.
    let title = driver.call("POST", "/element", Some(&json!({"using": "css selector", "value": "#f-title"})));
    let tid = title.as_object().unwrap().values().next().unwrap().as_str().unwrap().to_string();
    driver.call("POST", &format!("/element/{tid}/value"), Some(&json!({"text": "Harbour library xs"})));
    driver.js("document.activeElement.blur(); return 0");
    let shown = driver
        .js("return Array.from(document.querySelectorAll('#blocks li')).map(li => li.classList.contains('keep'))");
    assert_eq!(shown, json!(want));
    // The block under the pointer (here: the current one) is the frame's fragment target.
    let src = driver.js("return document.getElementById('frame').src");
    assert!(src.as_str().unwrap().contains(&format!("#b{}", n - 1)), "{src}");
    let shot = base.join("annotate.png");
    driver.keys(&["k", "k", "k"]);
    driver.screenshot(&shot);
    driver.keys(&["s"]);
    driver.wait("return document.getElementById('status').textContent.startsWith('saved')");
    let text = std::fs::read_to_string(set.join("example-news.org/news.txt")).unwrap();
    let kept: Vec<&str> = blocks.iter().zip(&want).filter(|(_, k)| **k).map(|(b, _)| b.0.as_str()).collect();
    assert_eq!(text, format!("{}\n", kept.join("\n\n")));
    let rec = std::fs::read_to_string(set.join("annotations.yaml")).unwrap();
    assert!(rec.contains("title: Harbour library xs"), "{rec}");
    // Saving again asks for confirmation in the page; Overwrite confirms.
    driver.keys(&["x", "s"]);
    driver.wait("return !document.getElementById('confirm').hidden");
    let confirm_shot = base.join("annotate-confirm.png");
    driver.screenshot(&confirm_shot);
    assert_eq!(std::fs::read_to_string(set.join("example-news.org/news.txt")).unwrap(), text);
    let b = driver.call("POST", "/element", Some(&json!({"using": "css selector", "value": "#overwrite"})));
    let bid = b.as_object().unwrap().values().next().unwrap().as_str().unwrap().to_string();
    driver.call("POST", &format!("/element/{bid}/click"), Some(&json!({})));
    driver.wait("return document.getElementById('status').textContent.startsWith('saved')");
    assert_ne!(std::fs::read_to_string(set.join("example-news.org/news.txt")).unwrap(), text);
    // The page list shows the state and progress; next page with n.
    driver.wait("return document.getElementById('progress').textContent === '1 / 2 saved'");
    driver.keys(&["n"]);
    driver.wait("return document.getElementById('pageid').textContent === 'example-news.org/other'");
    // The screenshot is a real rendering (a PNG of the window's size).
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000, "{} bytes", png.len());
    if let Ok(dir) = std::env::var("CETUNE_SCREENSHOTS") {
        std::fs::copy(&shot, Path::new(&dir).join("annotate.png")).unwrap();
        std::fs::copy(&confirm_shot, Path::new(&dir).join("annotate-confirm.png")).unwrap();
    }
}
