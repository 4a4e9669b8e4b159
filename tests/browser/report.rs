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

/// What a page does wrong at the browser's size: the page scrolling sideways, or a table wider
/// than its container (each problem one line).
const LAYOUT_PROBLEMS: &str = "const out = []; const de = document.documentElement;
if (de.scrollWidth > window.innerWidth) out.push('the page scrolls sideways: ' + de.scrollWidth + ' > ' + window.innerWidth);
document.querySelectorAll('table').forEach(t => { const box = t.parentElement;
  const w = t.getBoundingClientRect().width;
  if (w > box.clientWidth + 1) { const s = t.closest('section'); const h = s && s.querySelector('h2');
    out.push('a table overflows its container (' + Math.round(w) + ' > ' + box.clientWidth + ' px) in ' + (h ? h.textContent : 'the page')); } });
return out;";

/// Where the headline and the worst documents' table are: the bottom of the headline and the
/// top of the table's third row (its header and two documents shown), in CSS pixels.
const FOLD: &str = "const h = document.querySelector('.headline'); const t = document.querySelector('table.sortable');
const r = t && t.rows[Math.min(2, t.rows.length - 1)];
return [h ? h.getBoundingClientRect().bottom : 1e9, r ? r.getBoundingClientRect().bottom : 1e9, window.innerHeight, window.innerWidth];";

/// `report.html` of a small seeded run, with a compare of it, at 1,280 × 800: the page does
/// not scroll sideways, no table overflows its container, and the headline and the first rows of
/// the worst-documents table are above the fold; on a phone's width the page does not scroll
/// sideways either (tables scroll in their containers). The screenshots are kept beside the run.
pub fn the_report_fits_1280_by_800_with_the_headline_and_worst_documents_above_the_fold() {
    let set = linky_set("html-fold", 12);
    let run = beside(&set, "run");
    let (s, r) = (set.to_str().unwrap(), run.to_str().unwrap());
    cetune(&[
        "optimise",
        "-e",
        "lqf",
        "--goldset",
        s,
        "--out",
        r,
        "--population",
        "10",
        "--max-generations",
        "4",
        "-q",
    ])
    .ok();
    cetune(&["compare", "--goldset", s, "--run", r, "--top", "3", "--with-defaults", "-q"]).ok();
    cetune(&["report", r, "--html"]).ok();
    let page = run.join("report.html");
    let driver = crate::webdriver::Driver::start(&run.with_extension("profile"));
    // The viewport (not the window, whose frame takes some pixels) is made w × h.
    let size = |w: i64, h: i64| {
        driver.call("POST", "/window/rect", Some(&serde_json::json!({"width": w, "height": h})));
        let frame =
            driver.js("return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]");
        let (fw, fh) = (frame[0].as_i64().unwrap_or(0), frame[1].as_i64().unwrap_or(0));
        if fw != 0 || fh != 0 {
            driver.call("POST", "/window/rect", Some(&serde_json::json!({"width": w + fw, "height": h + fh})));
        }
    };
    size(1280, 800);
    driver.call("POST", "/url", Some(&serde_json::json!({"url": format!("file://{}", page.display())})));
    driver.wait("return document.readyState === 'complete'");
    size(1280, 800);
    let problems = driver.js(LAYOUT_PROBLEMS);
    let shot = run.with_extension("1280x800.png");
    driver.screenshot(&shot);
    eprintln!("screenshot at 1280 × 800: {}", shot.display());
    assert_eq!(problems, serde_json::json!([]), "report.html at 1280 × 800 (screenshot {})", shot.display());
    let fold = driver.js(FOLD);
    let v = |k: usize| fold[k].as_f64().unwrap();
    assert!((v(3) - 1280.0).abs() < 2.0 && (v(2) - 800.0).abs() < 2.0, "the viewport is not 1280 × 800: {fold}");
    assert!(v(0) <= v(2), "the headline ends below the fold: {fold} (screenshot {})", shot.display());
    assert!(v(1) <= v(2), "the worst documents are below the fold: {fold} (screenshot {})", shot.display());
    // The worst document is first, and a click on a header sorts (then reverses).
    let deltas = "return Array.from(document.querySelector('table.sortable').tBodies[0].rows).map(r => parseFloat(r.cells[4].textContent))";
    let shown: Vec<f64> = serde_json::from_value(driver.js(deltas)).unwrap();
    assert!(shown.len() == 12 && shown.windows(2).all(|w| w[0] <= w[1]), "worst first: {shown:?}");
    driver.js("document.querySelector('table.sortable th:nth-child(5)').click(); document.querySelector('table.sortable th:nth-child(5)').click(); return 0");
    let sorted: Vec<f64> = serde_json::from_value(driver.js(deltas)).unwrap();
    assert!(sorted.windows(2).all(|w| w[0] >= w[1]) && sorted.len() == 12, "sorted by Δ, best first: {sorted:?}");
    // The plots of every gene and of the top settings are on the page.
    let titles = driver.js("return Array.from(document.querySelectorAll('h2')).map(h => h.textContent)");
    for t in ["Fitness by gene value", "The top settings", "Files of the run", "Settings"] {
        assert!(titles.as_array().unwrap().iter().any(|x| x == t), "{t} missing: {titles}");
    }
    // A narrow window (400 px asked; headless Chromium makes it at least 500): tables scroll in
    // their containers, the page itself does not.
    size(400, 860);
    let problems = driver.js(LAYOUT_PROBLEMS);
    driver.screenshot(&run.with_extension("phone.png"));
    let sideways: Vec<String> = serde_json::from_value(problems).unwrap();
    assert!(!sideways.iter().any(|p| p.starts_with("the page scrolls")), "{sideways:?}");

    // The check itself can fail: a table wider than its container, and an element that makes
    // the page scroll sideways, are both caught.
    size(1280, 800);
    driver.js(
        "const d = document.createElement('div'); d.innerHTML = '<table><tr><td style=\"white-space:nowrap\">' + 'wide '.repeat(400) + '</td></tr></table>';
         document.querySelector('section').appendChild(d);
         const p = document.createElement('p'); p.style.width = '3000px'; p.textContent = 'x'; document.body.appendChild(p); return 0",
    );
    let caught: Vec<String> = serde_json::from_value(driver.js(LAYOUT_PROBLEMS)).unwrap();
    assert!(caught.iter().any(|p| p.starts_with("a table overflows")), "{caught:?}");
    assert!(caught.iter().any(|p| p.starts_with("the page scrolls sideways")), "{caught:?}");
}
