//! The precision–recall plot of a `--objective pareto` run: every evaluated setting, the Pareto
//! front, the known-good (published default) settings and the chosen point.

use super::{ensure_font, plot_err};
use crate::error::Result;
use plotters::prelude::*;
use std::path::Path;

/// What the precision–recall plot shows; points are (precision, recall).
#[derive(Debug, Clone, PartialEq)]
pub struct ParetoInfo {
    /// Title line.
    pub title: String,
    /// Every distinct fully evaluated setting.
    pub all: Vec<(f64, f64)>,
    /// The front, by increasing precision.
    pub front: Vec<(f64, f64)>,
    /// The known-good settings with their labels.
    pub known: Vec<(String, (f64, f64))>,
    /// The point `--pick` chose.
    pub chosen: Option<(f64, f64)>,
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    info: &ParetoInfo,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    // The view frames the front and the known-good settings; far-off settings are left out.
    let pts = info.front.iter().chain(info.known.iter().map(|k| &k.1));
    let (mut x0, mut x1, mut y0, mut y1) = (1.0f64, 0.0f64, 1.0f64, 0.0f64);
    for &(p, r) in pts {
        (x0, x1, y0, y1) = (x0.min(p), x1.max(p), y0.min(r), y1.max(r));
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    let pad = |a: f64, b: f64| ((b - a) * 0.05).max(0.005);
    let (px, py) = (pad(x0, x1), pad(y0, y1));
    let mut chart = ChartBuilder::on(&root)
        .caption(&info.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((x0 - px)..(x1 + px), (y0 - py)..(y1 + py))?;
    chart.configure_mesh().x_desc("mean precision").y_desc("mean recall").label_style(("sans-serif", 14)).draw()?;
    let grey = RGBColor(170, 170, 170);
    let inside = |&&(p, r): &&(f64, f64)| p >= x0 - px && p <= x1 + px && r >= y0 - py && r <= y1 + py;
    chart
        .draw_series(info.all.iter().filter(inside).map(|&p| Circle::new(p, 2, grey.filled())))?
        .label("evaluated settings")
        .legend(move |(x, y)| Circle::new((x + 9, y), 3, grey.filled()));
    let red = RGBColor(214, 39, 40);
    chart
        .draw_series(LineSeries::new(info.front.iter().copied(), red.stroke_width(2)))?
        .label("Pareto front")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], red.stroke_width(2)));
    chart.draw_series(info.front.iter().map(|&p| Circle::new(p, 4, red.filled())))?;
    chart
        .draw_series(info.known.iter().map(|k| Cross::new(k.1, 6, BLACK.stroke_width(2))))?
        .label("known-good (published) settings")
        .legend(|(x, y)| Cross::new((x + 9, y), 5, BLACK.stroke_width(2)));
    for (label, p) in &info.known {
        let short: String = label.chars().take(40).collect();
        chart.draw_series(std::iter::once(Text::new(short, *p, ("sans-serif", 11))))?;
    }
    if let Some(c) = info.chosen {
        let blue = RGBColor(31, 119, 180);
        chart
            .draw_series(std::iter::once(Circle::new(c, 9, blue.stroke_width(2))))?
            .label("chosen (--pick)")
            .legend(move |(x, y)| Circle::new((x + 9, y), 6, blue.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()?;
    root.present()
}

/// Writes `<stem>.svg` and `<stem>.png`.
pub fn render_pareto(info: &ParetoInfo, stem: &Path) -> Result<()> {
    render_both!(stem, (820, 640), draw(info))
}
