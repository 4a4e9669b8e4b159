//! The explored parameter space: one panel per pair of tuned parameters (or parameter vs
//! fitness when only one is tuned), every evaluated individual a point shaded by fitness or by
//! generation (Gottron 2009, Figure 4).

use super::{ensure_font, plot_err, viridis};
use crate::error::Result;
use plotters::prelude::*;
use std::path::Path;

/// One evaluated individual.
#[derive(Debug, Clone, PartialEq)]
pub struct SpacePoint {
    /// Values of the tuned parameters (internal reals: categories as indices).
    pub values: Vec<f64>,
    /// Its fitness.
    pub fitness: f64,
    /// The generation it was first evaluated in.
    pub generation: usize,
}

/// What the space plot shows.
#[derive(Debug, Clone, PartialEq)]
pub struct SpaceInfo {
    /// Title line.
    pub title: String,
    /// Names of the tuned parameters.
    pub names: Vec<String>,
    /// Their ranges (internal reals).
    pub ranges: Vec<(f64, f64)>,
    /// The points.
    pub points: Vec<SpacePoint>,
}

/// What shades the points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shade {
    /// Fitness: light = fitter.
    Fitness,
    /// Generation: light = later.
    Generation,
}

fn panels(n: usize) -> Vec<(usize, Option<usize>)> {
    if n == 1 {
        return vec![(0, None)];
    }
    (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, Some(j)))).collect()
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    info: &SpaceInfo,
    shade: Shade,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let subtitle = match shade {
        Shade::Fitness => "shade: fitness (yellow = best)",
        Shade::Generation => "shade: generation (yellow = latest)",
    };
    let root = root.titled(&format!("{} ({subtitle})", info.title), ("sans-serif", 18))?;
    let ps = panels(info.names.len());
    let cols = (ps.len() as f64).sqrt().ceil() as usize;
    let rows = ps.len().div_ceil(cols.max(1));
    let areas = root.split_evenly((rows.max(1), cols.max(1)));
    let (fmin, fmax) =
        info.points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.fitness), b.max(p.fitness)));
    let gmax = info.points.iter().map(|p| p.generation).max().unwrap_or(0).max(1) as f64;
    let colour = |p: &SpacePoint| match shade {
        Shade::Fitness => viridis(if fmax > fmin { (p.fitness - fmin) / (fmax - fmin) } else { 1.0 }),
        Shade::Generation => viridis(p.generation as f64 / gmax),
    };
    // Fitter points last, so the best are drawn on top.
    let mut order: Vec<&SpacePoint> = info.points.iter().collect();
    match shade {
        Shade::Fitness => order.sort_by(|a, b| a.fitness.total_cmp(&b.fitness)),
        Shade::Generation => order.sort_by_key(|p| p.generation),
    }
    for ((i, j), area) in ps.into_iter().zip(areas.iter()) {
        let (xr, xname) = (info.ranges[i], &info.names[i]);
        let (yr, yname) = match j {
            Some(j) => (info.ranges[j], info.names[j].as_str()),
            None => ((fmin.min(fmax), fmax.max(fmin + 1e-9)), "fitness"),
        };
        let widen = |r: (f64, f64)| {
            let pad = ((r.1 - r.0) * 0.03).max(1e-6);
            (r.0 - pad)..(r.1 + pad)
        };
        let mut chart = ChartBuilder::on(area)
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(50)
            .build_cartesian_2d(widen(xr), widen(yr))?;
        chart.configure_mesh().x_desc(xname.as_str()).y_desc(yname).label_style(("sans-serif", 13)).draw()?;
        chart.draw_series(order.iter().map(|p| {
            let y = j.map_or(p.fitness, |j| p.values[j]);
            Circle::new((p.values[i], y), 4, colour(p).filled())
        }))?;
    }
    root.present()
}

/// Writes `<stem>.svg` and `<stem>.png`.
pub fn render_space(info: &SpaceInfo, stem: &Path, shade: Shade) -> Result<()> {
    ensure_font();
    let n = panels(info.names.len()).len();
    let size = if n <= 1 { (800, 600) } else { (1100, 900) };
    let svg = stem.with_extension("svg");
    draw(SVGBackend::new(&svg, size).into_drawing_area(), info, shade).map_err(plot_err(&svg))?;
    let png = stem.with_extension("png");
    draw(BitMapBackend::new(&png, size).into_drawing_area(), info, shade).map_err(plot_err(&png))?;
    Ok(())
}
