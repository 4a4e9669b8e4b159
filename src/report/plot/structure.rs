//! The structure's evolution for a combination: for each generation, the share of the
//! population in which each member is switched on.

use super::{ensure_font, plot_err, viridis};
use crate::error::Result;
use plotters::prelude::*;
use std::path::Path;

/// What the structure plot shows.
#[derive(Debug, Clone, PartialEq)]
pub struct StructureInfo {
    /// Title line.
    pub title: String,
    /// The members, in the order of the shares.
    pub members: Vec<String>,
    /// `(generation, share of the population with each member on)`.
    pub rows: Vec<(usize, Vec<f64>)>,
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    info: &StructureInfo,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let last = info.rows.last().map_or(1, |r| r.0).max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(&info.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..last as f64, -0.02f64..1.02)?;
    chart
        .configure_mesh()
        .x_desc("generation")
        .y_desc("share of the population with the member on")
        .x_labels((last + 1).min(12))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .label_style(("sans-serif", 14))
        .draw()?;
    let n = info.members.len().max(2) - 1;
    for (k, m) in info.members.iter().enumerate() {
        let color = viridis(k as f64 / n as f64 * 0.9);
        let points = info.rows.iter().map(|(g, s)| (*g as f64, s.get(k).copied().unwrap_or(0.0)));
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))?
            .label(m.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
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
pub fn render_structure(info: &StructureInfo, stem: &Path) -> Result<()> {
    render_both!(stem, (900, 560), draw(info))
}
