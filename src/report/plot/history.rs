//! Fitness over generations: best, mean and worst of each generation.

use super::{ensure_font, plot_err};
use crate::error::Result;
use plotters::prelude::*;
use std::path::Path;

/// One generation's fitness statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct GenRow {
    /// Generation number.
    pub generation: usize,
    /// Best fitness in the generation.
    pub best: f64,
    /// Mean fitness.
    pub mean: f64,
    /// Worst fitness.
    pub worst: f64,
}

/// What the history plot shows.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryInfo {
    /// Title line.
    pub title: String,
    /// One row per generation.
    pub rows: Vec<GenRow>,
    /// The fitness axis' label (what the fitness is).
    pub y_desc: String,
    /// `--validation`: (generation, the generation best's fitness on the held-out documents).
    pub validation: Vec<(usize, f64)>,
}

/// A line of the plot: name, colour, and the value it shows.
type Series = (&'static str, RGBColor, fn(&GenRow) -> f64);

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    info: &HistoryInfo,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let last = info.rows.last().map_or(1, |r| r.generation).max(1);
    let held = info.validation.iter().map(|v| v.1).filter(|v| v.is_finite());
    let lo = info.rows.iter().map(|r| r.worst).chain(held.clone()).fold(f64::INFINITY, f64::min);
    let hi = info.rows.iter().map(|r| r.best).chain(held).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let pad = ((hi - lo) * 0.05).max(0.005);
    let mut chart = ChartBuilder::on(&root)
        .caption(&info.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..last as f64, (lo - pad)..(hi + pad))?;
    chart
        .configure_mesh()
        .x_desc("generation")
        .y_desc(info.y_desc.as_str())
        .x_labels((last + 1).min(12))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .label_style(("sans-serif", 14))
        .draw()?;
    let series: [Series; 3] = [
        ("best", RGBColor(31, 119, 180), |r| r.best),
        ("mean", RGBColor(44, 160, 44), |r| r.mean),
        ("worst", RGBColor(214, 39, 40), |r| r.worst),
    ];
    for (name, color, f) in series {
        chart
            .draw_series(LineSeries::new(info.rows.iter().map(|r| (r.generation as f64, f(r))), color.stroke_width(2)))?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
        chart.draw_series(info.rows.iter().map(|r| Circle::new((r.generation as f64, f(r)), 3, color.filled())))?;
    }
    if !info.validation.is_empty() {
        let color = RGBColor(255, 127, 14);
        let points = || info.validation.iter().map(|&(g, v)| (g as f64, v));
        chart
            .draw_series(LineSeries::new(points(), color.stroke_width(2)))?
            .label("best, on validation documents")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
        chart.draw_series(points().map(|p| TriangleMarker::new(p, 4, color.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()?;
    root.present()
}

/// Writes `<stem>.svg` and `<stem>.png`.
pub fn render_history(info: &HistoryInfo, stem: &Path) -> Result<()> {
    render_both!(stem, (900, 560), draw(info))
}
