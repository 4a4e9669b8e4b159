//! `report.html` in headless Chromium: no console message, the plots rendered.

use crate::util::{beside, cetune, linky_set};
use std::path::Path;
use std::process::Command;

/// Loads a page in headless Chromium, screenshots it, and returns the console lines (messages
/// and uncaught errors, which Chromium logs as `…:CONSOLE…` with `--enable-logging=stderr`) and
/// the screenshot.
fn chromium(page: &Path, shot: &Path, height: u32) -> (Vec<String>, Vec<u8>) {
    let profile = page.with_extension("chromium-profile");
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--window-size=1280,{height}"),
            &format!("--screenshot={}", shot.display()),
            &format!("file://{}", page.display()),
        ])
        .output()
        .expect("run chromium");
    let _ = std::fs::remove_dir_all(&profile);
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    let console = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .map(String::from)
        .collect();
    (console, std::fs::read(shot).unwrap())
}

/// Pixels of the screenshot close to a colour, and the number of distinct colours.
fn pixels(png: &[u8], rgb: (u8, u8, u8)) -> (usize, usize) {
    let decoder = png::Decoder::new(png);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let step = info.color_type.samples();
    let mut near = 0;
    let mut colours = std::collections::HashSet::new();
    for px in buf[..info.buffer_size()].chunks(step) {
        let d = |a: u8, b: u8| (a as i32 - b as i32).abs();
        if d(px[0], rgb.0) + d(px[1], rgb.1) + d(px[2], rgb.2) < 30 {
            near += 1;
        }
        colours.insert((px[0], px[1], px[2]));
    }
    (near, colours.len())
}

/// The report a seeded run writes renders in a browser: no console message, the plots drawn.
pub fn the_html_report_renders_in_a_browser() {
    let set = linky_set("html-browser", 9);
    let run = beside(&set, "run");
    let (s, r) = (set.to_str().unwrap(), run.to_str().unwrap());
    cetune(&["optimise", "-e", "lqf", "--goldset", s, "--out", r, "--population", "8", "--max-generations", "4", "-q"])
        .ok();
    let shot = run.with_extension("png");
    let (console, png) = chromium(&run.join("report.html"), &shot, 4200);
    assert!(console.is_empty(), "console messages: {console:?}");
    // The space plots' colour bars are drawn in viridis: its yellow end and purple start must be
    // on screen (tables and text use neither), and a rendered page has many colours.
    let (yellow, colours) = pixels(&png, (253, 231, 37));
    let (purple, _) = pixels(&png, (68, 1, 84));
    assert!(yellow > 200 && purple > 200, "plots not rendered: {yellow} yellow, {purple} purple pixels");
    assert!(colours > 200, "a blank screenshot: {colours} colours");

    // The check itself can fail: a page with a script error is caught.
    let bad = run.with_extension("bad.html");
    std::fs::write(&bad, "<html><body><p>x</p><script>nope();</script></body></html>").unwrap();
    let (console, png) = chromium(&bad, &run.with_extension("bad.png"), 400);
    assert!(console.iter().any(|l| l.contains("Uncaught ReferenceError")), "{console:?}");
    assert_eq!(pixels(&png, (253, 231, 37)).0, 0);
}
