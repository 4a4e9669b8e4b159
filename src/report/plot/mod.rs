//! Plots (the only user of `plotters`): fitness over generations and the explored parameter
//! space (Gottron 2009, Figure 4), and a confidence's calibration. Every plot is written as SVG and PNG. The PNG text uses the
//! embedded DejaVu Sans (licence beside it), so no system font is needed.

/// Draws one figure as `<stem>.svg` and `<stem>.png` of `size` pixels by calling
/// `draw(area, args…)` with each backend's drawing area; a macro because the drawing functions are
/// generic over the backend. Expands to the `Result` of the plot's `render_*` function.
macro_rules! render_both {
    ($stem:expr, $size:expr, $draw:ident($($arg:expr),*)) => {{
        ensure_font();
        // Through the safe-write layer: the SVG is drawn in memory, the PNG into a fresh
        // temporary beside its target; both then replace their target by a rename.
        let svg = $stem.with_extension("svg");
        let mut text = String::new();
        $draw(SVGBackend::with_string(&mut text, $size).into_drawing_area(), $($arg),*).map_err(plot_err(&svg))?;
        crate::paths::write_atomic(&svg, super::compact_svg(&text).as_bytes())?;
        // The PNG is drawn into an RGB buffer and encoded here (`png`), so plotters needs no
        // image crate (the longest dependency to build).
        let png = $stem.with_extension("png");
        let mut rgb = vec![0u8; $size.0 as usize * $size.1 as usize * 3];
        $draw(BitMapBackend::with_buffer(&mut rgb, $size).into_drawing_area(), $($arg),*).map_err(plot_err(&png))?;
        crate::paths::write_atomic(&png, &super::png_bytes(&rgb, $size).map_err(plot_err(&png))?)
    }};
}

/// The SVG text without the attributes that only restate SVG's defaults (`opacity="1"`, and
/// the stroke width of a shape drawn without a stroke): a space plot's thousands of markers then
/// take half the bytes, and every report stays small. The drawing is unchanged.
pub(crate) fn compact_svg(svg: &str) -> String {
    svg.replace(" opacity=\"1\"", "").replace(" stroke=\"none\" stroke-width=\"1\"", "")
}

mod calibration;
mod history;
mod parallel;
mod pareto;
mod slice;
mod space;
mod structure;

pub use calibration::{CalibrationInfo, bins as calibration_bins, render_calibration};
pub use history::{GenRow, HistoryInfo, render_history};
pub use parallel::{render_parallel, top_points};
pub use pareto::{ParetoInfo, render_pareto};
pub use slice::{live_genes, render_slices};
pub use space::{Axis, Shade, SpaceInfo, SpacePoint, render_space};
pub use structure::{StructureInfo, render_structure};

use crate::error::Error;
use plotters::style::{FontStyle, RGBColor, register_font};
use std::sync::Once;

static FONT: &[u8] = include_bytes!("DejaVuSans.ttf");
static REGISTER: Once = Once::new();

/// Registers the embedded font as "sans-serif" (once per process).
fn ensure_font() {
    REGISTER.call_once(|| {
        let _ = register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// An RGB image of `w` × `h` pixels as PNG bytes.
pub(crate) fn png_bytes(rgb: &[u8], (w, h): (u32, u32)) -> std::result::Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(rgb)?;
    Ok(out)
}

/// Turns a plotters error into ours.
fn plot_err<E: std::fmt::Debug>(path: &std::path::Path) -> impl Fn(E) -> Error + '_ {
    move |e| Error::new(crate::error::ErrorKind::Io, format!("cannot draw plot: {e:?}")).with_path(path)
}

/// A viridis-like colour for `x` in [0, 1] (dark purple → teal → yellow).
pub fn viridis(x: f64) -> RGBColor {
    const STOPS: [(f64, f64, f64); 5] =
        [(68.0, 1.0, 84.0), (59.0, 82.0, 139.0), (33.0, 145.0, 140.0), (94.0, 201.0, 98.0), (253.0, 231.0, 37.0)];
    let x = if x.is_finite() { x.clamp(0.0, 1.0) } else { 0.0 } * 4.0;
    let i = (x.floor() as usize).min(3);
    let f = x - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |p: f64, q: f64| (p + (q - p) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plots_are_written_as_svg_and_png_with_text() {
        let dir = std::env::temp_dir().join(format!("cetune-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rows =
            (0..8).map(|g| GenRow { generation: g, best: 0.7 + 0.01 * g as f64, mean: 0.6, worst: 0.3 }).collect();
        let y_desc = "fitness (macro-f1, measure bow)".into();
        render_history(
            &HistoryInfo {
                title: "accb on test".into(),
                rows,
                y_desc,
                validation: vec![(0, 0.5)],
                default: Some(0.4),
                worst: false,
            },
            &dir.join("history"),
        )
        .unwrap();
        let points = (0..60)
            .map(|k| SpacePoint {
                values: vec![k as f64, (k % 10) as f64 / 10.0, (k % 3) as f64],
                fitness: (k as f64 / 60.0),
                generation: k / 10,
            })
            .collect();
        let info = SpaceInfo {
            title: "space".into(),
            names: vec!["r".into(), "t".into(), "c".into()],
            ranges: vec![(0.0, 60.0), (0.0, 1.0), (0.0, 2.0)],
            axes: vec![Axis::Int, Axis::Real, Axis::Choices(vec!["a".into(), "b".into(), "c".into()])],
            points,
            best: Some(vec![59.0, 0.9, 2.0]),
            known: vec![vec![40.0, 0.75, 1.0]],
        };
        render_space(&info, &dir.join("space"), Shade::Fitness).unwrap();
        for f in ["history.svg", "history.png", "space.svg", "space.png"] {
            let len = std::fs::metadata(dir.join(f)).unwrap().len();
            assert!(len > 5_000, "{f} is only {len} bytes");
        }
        let svg = std::fs::read_to_string(dir.join("history.svg")).unwrap();
        assert!(svg.contains("generation") && svg.contains("accb on test") && svg.contains("measure bow"));
        assert_eq!(&std::fs::read(dir.join("space.png")).unwrap()[1..4], b"PNG");
    }
}
