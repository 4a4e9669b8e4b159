//! The calibration plot of a confidence (`evaluate --confidence`): the pages binned by their
//! confidence (an estimate of their F1), each bin's mean confidence against its mean F1, with the
//! diagonal a perfect estimate lies on, and every page as a faint point.

use super::{ensure_font, plot_err};
use crate::error::Result;
use plotters::prelude::*;
use std::path::Path;

/// What the calibration plot shows.
#[derive(Debug, Clone, PartialEq)]
pub struct CalibrationInfo {
    /// Title line.
    pub title: String,
    /// Every page: (confidence, F1).
    pub pages: Vec<(f64, f64)>,
    /// The bins: (mean confidence, mean F1, pages), by increasing confidence.
    pub bins: Vec<(f64, f64, usize)>,
    /// The low-confidence threshold (a vertical line).
    pub threshold: f64,
}

/// `n` bins of equal width over [0, 1] of the pages' (confidence, F1): each non-empty bin's mean
/// confidence, mean F1 and page count.
pub fn bins(pages: &[(f64, f64)], n: usize) -> Vec<(f64, f64, usize)> {
    let n = n.max(1);
    let mut acc = vec![(0.0, 0.0, 0usize); n];
    for &(c, f) in pages.iter().filter(|(c, f)| c.is_finite() && f.is_finite()) {
        let b = ((c.clamp(0.0, 1.0) * n as f64) as usize).min(n - 1);
        acc[b] = (acc[b].0 + c, acc[b].1 + f, acc[b].2 + 1);
    }
    acc.into_iter().filter(|b| b.2 > 0).map(|(c, f, k)| (c / k as f64, f / k as f64, k)).collect()
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    info: &CalibrationInfo,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(&info.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..1.0f64, 0.0..1.0f64)?;
    chart
        .configure_mesh()
        .x_desc("confidence (estimated F1)")
        .y_desc("page F1")
        .label_style(("sans-serif", 14))
        .draw()?;
    let grey = RGBColor(185, 185, 185);
    chart
        .draw_series(info.pages.iter().map(|&p| Circle::new(p, 2, grey.filled())))?
        .label("pages")
        .legend(move |(x, y)| Circle::new((x + 9, y), 3, grey.filled()));
    chart
        .draw_series(LineSeries::new([(0.0, 0.0), (1.0, 1.0)], BLACK.stroke_width(1)))?
        .label("perfect estimate")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], BLACK.stroke_width(1)));
    let blue = RGBColor(31, 119, 180);
    let means = info.bins.iter().map(|&(c, f, _)| (c, f));
    chart
        .draw_series(LineSeries::new(means.clone(), blue.stroke_width(2)))?
        .label("mean F1 by confidence (10 bins)")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], blue.stroke_width(2)));
    chart.draw_series(means.map(|p| Circle::new(p, 4, blue.filled())))?;
    let red = RGBColor(214, 39, 40);
    let t = info.threshold.clamp(0.0, 1.0);
    chart
        .draw_series(LineSeries::new([(t, 0.0), (t, 1.0)], red.stroke_width(1)))?
        .label(format!("threshold {t:.3}"))
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], red.stroke_width(1)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()?;
    root.present()
}

/// Writes `<stem>.svg` and `<stem>.png`.
pub fn render_calibration(info: &CalibrationInfo, stem: &Path) -> Result<()> {
    render_both!(stem, (720, 640), draw(info))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_average_the_pages_of_each_confidence_tenth() {
        let pages = [(0.05, 0.0), (0.08, 0.2), (0.55, 0.5), (1.0, 1.0), (0.99, 0.8), (f64::NAN, 1.0)];
        let b = bins(&pages, 10);
        assert_eq!(b.len(), 3);
        assert!((b[0].0 - 0.065).abs() < 1e-12 && (b[0].1 - 0.1).abs() < 1e-12 && b[0].2 == 2, "{b:?}");
        assert_eq!(b[1], (0.55, 0.5, 1));
        // A confidence of 1 falls in the last bin.
        assert!((b[2].0 - 0.995).abs() < 1e-12 && (b[2].1 - 0.9).abs() < 1e-12 && b[2].2 == 2, "{b:?}");
    }

    #[test]
    fn the_plot_is_written_as_svg_and_png() {
        let dir = std::env::temp_dir().join(format!("cetune-calibration-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pages: Vec<(f64, f64)> = (0..50).map(|i| (i as f64 / 50.0, (i as f64 / 50.0).powi(2))).collect();
        let info = CalibrationInfo { title: "t".into(), bins: bins(&pages, 10), pages, threshold: 0.3 };
        render_calibration(&info, &dir.join("calibration")).unwrap();
        let svg = std::fs::read_to_string(dir.join("calibration.svg")).unwrap();
        assert!(svg.contains("confidence (estimated F1)") && svg.contains("threshold 0.300"), "{svg}");
        assert!(std::fs::read(dir.join("calibration.png")).unwrap().starts_with(b"\x89PNG"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
