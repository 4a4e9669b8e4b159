//! Fitness over generations: the best and the mean of each generation and the default
//! setting's fitness (the worst only on request), on an axis fitted to those lines, with the
//! legend beside the plot so it never covers data.

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
    /// The default setting's fitness, drawn as a horizontal line (when it was evaluated).
    pub default: Option<f64>,
    /// Also draw each generation's worst (it stretches the axis far below the best).
    pub worst: bool,
}

/// A line of the plot: name, colour, and the value it shows.
type Series = (&'static str, RGBColor, fn(&GenRow) -> f64);

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    info: &HistoryInfo,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let (w, _) = root.dim_in_pixel();
    let (plot, legend) = root.split_horizontally(w.saturating_sub(230));
    let last = info.rows.last().map_or(1, |r| r.generation).max(1);
    let mut series: Vec<Series> =
        vec![("best", RGBColor(31, 119, 180), |r| r.best), ("mean", RGBColor(44, 160, 44), |r| r.mean)];
    if info.worst {
        series.push(("worst", RGBColor(214, 39, 40), |r| r.worst));
    }
    // The axis spans the lines drawn, nothing else.
    let drawn = info.rows.iter().flat_map(|r| series.iter().map(move |s| (s.2)(r)));
    let extra = info.validation.iter().map(|v| v.1).chain(info.default);
    let values: Vec<f64> = drawn.chain(extra).filter(|v| v.is_finite()).collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let pad = ((hi - lo) * 0.05).max(0.002);
    let mut chart = ChartBuilder::on(&plot)
        .caption(&info.title, ("sans-serif", 18))
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
    let mut keys: Vec<(String, RGBColor, bool)> = Vec::new();
    for (name, color, f) in &series {
        chart.draw_series(LineSeries::new(
            info.rows.iter().map(|r| (r.generation as f64, f(r))),
            color.stroke_width(2),
        ))?;
        chart.draw_series(info.rows.iter().map(|r| Circle::new((r.generation as f64, f(r)), 3, color.filled())))?;
        keys.push((name.to_string(), *color, false));
    }
    if let Some(d) = info.default.filter(|d| d.is_finite()) {
        let color = RGBColor(90, 90, 90);
        chart.draw_series(DashedLineSeries::new([(0.0, d), (last as f64, d)], 6, 4, color.stroke_width(2)))?;
        keys.push((format!("default ({d:.4})"), color, true));
    }
    if !info.validation.is_empty() {
        let color = RGBColor(255, 127, 14);
        let points = || info.validation.iter().map(|&(g, v)| (g as f64, v));
        chart.draw_series(LineSeries::new(points(), color.stroke_width(2)))?;
        chart.draw_series(points().map(|p| TriangleMarker::new(p, 4, color.filled())))?;
        keys.push(("best, on validation documents".into(), color, false));
    }
    // The legend, in its own column right of the plot.
    for (k, (name, color, dashed)) in keys.iter().enumerate() {
        let y = 60 + 24 * k as i32;
        let style = color.stroke_width(2);
        if *dashed {
            legend.draw(&PathElement::new(vec![(8, y), (16, y)], style))?;
            legend.draw(&PathElement::new(vec![(20, y), (28, y)], style))?;
        } else {
            legend.draw(&PathElement::new(vec![(8, y), (28, y)], style))?;
        }
        legend.draw(&Text::new(name.clone(), (34, y - 8), ("sans-serif", 14).into_font().color(&BLACK)))?;
    }
    root.present()
}

/// Writes `<stem>.svg` and `<stem>.png`.
pub fn render_history(info: &HistoryInfo, stem: &Path) -> Result<()> {
    render_both!(stem, (900, 560), draw(info))
}
